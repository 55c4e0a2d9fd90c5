package dev.cim.server.chat.session;

import java.util.ArrayList;
import java.util.List;

/**
 * One user's sessions on this node, and the point where messages to them are put in order: a
 * message is handed to the user's sessions under this entry's lock, and a session leaves under the
 * same lock, taking what was handed to it. So each message either reaches a session's queue (and
 * then its window, or the inbox if the session closes) or finds no session and goes the offline way
 * after every message the session took: never both, never neither.
 *
 * <h3>The last session's store</h3>
 * A session that leaves queues the store of what it took on the user's lane, and the offline way of
 * a message that finds no session runs on that lane too: behind the store when the message was
 * routed after the session left, but ahead of it when the message was on the lane already (routed
 * while the session was here, it followed an earlier message of its source there, see
 * {@code RouteGate}, which the lane then handed to the session). So until the store of the last
 * session to leave begins, that store stands in for the session: a message handed over meanwhile,
 * with no session to take it, joins the store behind what the session took, as if the session had
 * taken it. (A server frozen past the idle timeout showed a client's 633 and 634,
 * stored the offline way, ahead of the 378..632 its closing session stored.)
 */
public final class UserEntry {

    private final String user;
    private final List<Session> sessions = new ArrayList<>(2);
    /**
     * The user's session here when they have exactly one, else null: read without the lock by a
     * router asking whether a sender has other terminals to copy a message to (most have none).
     */
    private volatile Session only;
    private boolean removed;
    /** What the last session to leave stores, until that store begins on the lane; else null. */
    private List<Delivery> storing;

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
     * @return how many sessions took it (1 when it joins the store of the last session to leave),
     *         or -1 if this entry has been removed (look it up again)
     */
    public synchronized int offer(Delivery delivery, Session except, boolean counted) {
        if (removed) {
            return -1;
        }
        if (sessions.isEmpty()) {
            // A group's message waits in the group's log, not in the inbox: the leaving session's rule.
            if (storing == null || delivery.position() != null) {
                return 0;
            }
            if (counted && delivery.tracker() != null) {
                delivery.tracker().expect();
                storing.add(delivery);
            } else {
                storing.add(delivery.copy());
            }
            return 1;
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

    /**
     * Hands a copy of {@code delivery}, counting for nothing, to each session of the user but
     * {@code from}; without taking the lock when {@code from} is their only one.
     *
     * @return false if this entry has been removed (look it up again)
     */
    boolean copyToOthers(Delivery delivery, Session from) {
        return only == from || offer(delivery, from, false) >= 0;
    }

    /** @return false if this entry has been removed (look it up again) */
    synchronized boolean add(Session session) {
        if (removed) {
            return false;
        }
        sessions.add(session);
        only = sessions.size() == 1 ? session : null;
        return true;
    }

    /**
     * Takes {@code session} out, running {@code whileLeaving} before the lock is let go; nothing more
     * is handed to the session after this returns. If it was the last, what is handed over from then
     * on joins {@code storing} until {@link #stored} takes it.
     *
     * @param storing what the session stores in the inbox, on the user's lane
     * @return the sessions the user has left here
     */
    synchronized int remove(Session session, List<Delivery> storing, Runnable whileLeaving) {
        sessions.remove(session);
        only = sessions.size() == 1 ? sessions.get(0) : null;
        whileLeaving.run();
        if (sessions.isEmpty()) {
            this.storing = storing;
        }
        return sessions.size();
    }

    /** On the user's lane, as the store of {@code storing} begins: nothing joins it any more. */
    synchronized List<Delivery> stored(List<Delivery> storing) {
        if (this.storing == storing) {
            this.storing = null;
        }
        return storing;
    }

    /** Removes the entry if it has no session and no store to join: later lookups make a new one. */
    synchronized boolean removeIfEmpty() {
        if (sessions.isEmpty() && storing == null) {
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
