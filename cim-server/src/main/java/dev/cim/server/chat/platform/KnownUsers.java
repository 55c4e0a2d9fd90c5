package dev.cim.server.chat.platform;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Which user names have an account, asked of the account store once per name and remembered, so
 * that checking the recipients of scheduled messages costs a round trip only for names not seen
 * before, all of a batch's in one. Accounts are never deleted, so a yes stays true; a no is asked
 * again next time (the account may have been created meanwhile). Memory is bounded: past
 * {@code capacity} names it starts over. Thread-safe.
 */
public final class KnownUsers {

    private final Function<Collection<String>, Set<String>> existing;
    private final int capacity;
    private final Set<String> known = ConcurrentHashMap.newKeySet();

    /**
     * @param existing those of the names given that have an account, in one round trip; may block, may throw
     * @param capacity the most names remembered
     */
    public KnownUsers(Function<Collection<String>, Set<String>> existing, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 1)");
        }
        this.existing = existing;
        this.capacity = capacity;
    }

    /**
     * Those of {@code users} (canonical names) that have no account; empty, without asking the store,
     * when all are known. Blocks on the store, once, when some of them are not known yet.
     */
    public Set<String> withoutAccount(Collection<String> users) {
        Set<String> unknown = null;
        for (String user : users) {
            if (!known.contains(user)) {
                if (unknown == null) {
                    unknown = new HashSet<>();
                }
                unknown.add(user);
            }
        }
        if (unknown == null) {
            return Set.of();
        }
        Set<String> found = existing.apply(unknown);
        if (known.size() + found.size() > capacity) {
            known.clear();
        }
        known.addAll(found);
        unknown.removeAll(found);
        return unknown;
    }
}
