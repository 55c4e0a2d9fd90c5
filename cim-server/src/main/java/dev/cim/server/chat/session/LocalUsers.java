package dev.cim.server.chat.session;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The users logged in on this node and their sessions, looked up without leaving the process:
 * routing between users of one node never touches the store.
 */
public final class LocalUsers {

    private final ConcurrentHashMap<String, UserEntry> users = new ConcurrentHashMap<>();

    /** The entry of {@code user}, or null when they have no session here. */
    public UserEntry get(String user) {
        return users.get(user);
    }

    /**
     * Hands a copy of {@code delivery}, counting for nothing, to the other sessions here of
     * {@code from}'s user (their other terminals see what they sent). Most users have one session:
     * then neither the map nor the entry's lock is touched.
     */
    public void copyToOtherSessions(Delivery delivery, Session from) {
        UserEntry own = from.entry();
        if (own != null && own.copyToOthers(delivery, from)) {
            return;
        }
        own = users.get(from.user());
        if (own != null) {
            own.offer(delivery, from, false);
        }
    }

    /** Adds {@code session} to its user's entry, making one if needed. */
    public void add(Session session) {
        while (true) {
            UserEntry entry = users.computeIfAbsent(session.user(), UserEntry::new);
            if (entry.add(session)) {
                session.entry(entry);
                return;
            }
            users.remove(session.user(), entry);
        }
    }

    /**
     * Removes {@code session}, running {@code whileLeaving} under its user's entry lock: whatever it
     * queues on the user's lane is queued before anything a router queues there on finding the
     * session gone (routers hand messages over under the same lock). Nothing is handed to the
     * session after this returns; if it was its user's last session here, what is handed to the user
     * joins {@code storing} until the store's turn comes on the lane ({@link #stored}, and see
     * {@link UserEntry}).
     *
     * @param storing what the session stores in the inbox; {@code whileLeaving} queues that store
     * @return how many sessions its user has left here
     */
    int remove(Session session, List<Delivery> storing, Runnable whileLeaving) {
        UserEntry entry = users.get(session.user());
        if (entry == null) {
            whileLeaving.run();
            return 0;
        }
        int left = entry.remove(session, storing, whileLeaving);
        if (left == 0 && entry.removeIfEmpty()) {
            users.remove(session.user(), entry);
        }
        return left;
    }

    /**
     * On the user's lane, as the store of what {@code session} left ({@link #remove}) begins:
     * {@code storing}, with whatever joined it; nothing joins it from now on.
     */
    List<Delivery> stored(Session session, List<Delivery> storing) {
        UserEntry entry = users.get(session.user());
        if (entry == null) {
            return storing;
        }
        List<Delivery> all = entry.stored(storing);
        if (entry.removeIfEmpty()) {
            users.remove(session.user(), entry);
        }
        return all;
    }

    /** Every user entry; a snapshot. */
    public Collection<UserEntry> entries() {
        return new ArrayList<>(users.values());
    }

    /** Every session on this node; a snapshot. */
    public List<Session> sessions() {
        List<Session> all = new ArrayList<>();
        users.values().forEach(entry -> all.addAll(entry.sessions()));
        return all;
    }

    /** Each user here with their session count; a snapshot. */
    public Map<String, Integer> sessionCounts() {
        Map<String, Integer> counts = new HashMap<>();
        users.forEach((user, entry) -> {
            int n = entry.size();
            if (n > 0) {
                counts.put(user, n);
            }
        });
        return counts;
    }

    /** How many sessions {@code user} has here. */
    public int sessionCount(String user) {
        UserEntry entry = users.get(user);
        return entry == null ? 0 : entry.size();
    }

    /** How many users have a session here. */
    public int userCount() {
        return users.size();
    }
}
