package dev.cim.server.chat.session;

import java.util.ArrayList;
import java.util.List;

/**
 * One user's sessions on this node, and the point where messages to them are put in order: a
 * message is handed to the user's sessions under this entry's lock, and a session leaves under the
 * same lock, taking what was handed to it. So each message either reaches a session's queue (and
 * then its window, or the inbox if the session closes) or finds no session and goes the offline way
 * after every message the session took: never both, never neither.
 */
public final class UserEntry {

    private final String user;
    private final List<Session> sessions = new ArrayList<>(2);
    private boolean removed;

    UserEntry(String user) {
        this.user = user;
    }

    public String user() {
        return user;
    }

    /**
     * Hands {@code delivery} to each session of the user except {@code except}, counting a tracker
     * part for each when {@code counted}.
     *
     * @return how many sessions took it, or -1 if this entry has been removed (look it up again)
     */
    public synchronized int offer(Delivery delivery, Session except, boolean counted) {
        if (removed) {
            return -1;
        }
        int taken = 0;
        for (Session session : sessions) {
            if (session != except) {
                if (counted && delivery.tracker() != null) {
                    delivery.tracker().expect();
                    session.enqueue(delivery);
                } else {
                    session.enqueue(delivery.copy());
                }
                taken++;
            }
        }
        return taken;
    }

    /** @return false if this entry has been removed (look it up again) */
    synchronized boolean add(Session session) {
        if (removed) {
            return false;
        }
        sessions.add(session);
        return true;
    }

    /**
     * Takes {@code session} out, running {@code whileLeaving} before the lock is let go; nothing more
     * is handed to the session after this returns.
     *
     * @return the sessions the user has left here
     */
    synchronized int remove(Session session, Runnable whileLeaving) {
        sessions.remove(session);
        whileLeaving.run();
        return sessions.size();
    }

    /** Removes the entry if it has no session: later lookups make a new one. */
    synchronized boolean removeIfEmpty() {
        if (sessions.isEmpty()) {
            removed = true;
        }
        return removed;
    }

    public synchronized int size() {
        return sessions.size();
    }

    public synchronized List<Session> sessions() {
        return List.copyOf(sessions);
    }
}
