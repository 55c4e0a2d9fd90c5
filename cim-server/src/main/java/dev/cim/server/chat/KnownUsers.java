package dev.cim.server.chat;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Which user names have an account, asked of the account store once per name and remembered, so
 * that checking the recipient of every scheduled message costs a round trip only for a name not seen
 * before. Accounts are never deleted, so a yes stays true; a no is asked again next time (the account
 * may have been created meanwhile). Memory is bounded: past {@code capacity} names it starts over.
 * Thread-safe.
 */
final class KnownUsers {

    private final Predicate<String> exists;
    private final int capacity;
    private final Set<String> known = ConcurrentHashMap.newKeySet();

    /**
     * @param exists   asks the store whether an account exists; may block, may throw
     * @param capacity the most names remembered
     */
    KnownUsers(Predicate<String> exists, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 1)");
        }
        this.exists = exists;
        this.capacity = capacity;
    }

    /** True when {@code user} (a canonical name) has an account. Blocks on the store for a name not known yet. */
    boolean exists(String user) {
        if (known.contains(user)) {
            return true;
        }
        if (!exists.test(user)) {
            return false;
        }
        if (known.size() >= capacity) {
            known.clear();
        }
        known.add(user);
        return true;
    }
}
