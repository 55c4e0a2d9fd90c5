package dev.cim.server.redis;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What this server kept fresh in Redis lately: a write that only keeps something up to date (a
 * key's time to live pushed on, the score of a user's index entry raised) is skipped when the same
 * one was done less than {@link #windowMillis} ago. Redis's cost per message is mostly per command,
 * and these are most of the commands of a message's history write: a conversation with a message a
 * second needs them once a minute, not sixty times.
 *
 * <p>A fixed table of {@value #SLOTS} slots, each holding a hash of what was written and when (in
 * seconds), in one {@code long}, so no thread reads half of another's write. It is lossy: what
 * shares a slot pushes the other out, and the one pushed out is written again sooner, never later. A
 * false match needs 50 bits of two hashes to agree. Callers note a write only after Redis took it,
 * so a failed one is done again with the next message.
 */
final class FreshWrites {

    /** Slots: 8 MiB. Random pairs of 1,000 users make 1.5 million keys and members; real traffic far fewer. */
    static final int SLOTS = 1 << 20;

    private final AtomicLongArray table = new AtomicLongArray(SLOTS);
    private final long windowSeconds;

    /**
     * @param windowMillis how long a write keeps its key fresh, at least 1 s
     */
    FreshWrites(long windowMillis) {
        if (windowMillis < 1000) {
            throw new IllegalArgumentException("fresh window: " + windowMillis + " ms (expected: >= 1000)");
        }
        this.windowSeconds = windowMillis / 1000;
    }

    /** How long a write keeps its key fresh, in ms. */
    long windowMillis() {
        return windowSeconds * 1000;
    }

    /** True when {@code member} of {@code key} (empty: the key itself) was noted as written within the window. */
    boolean fresh(String key, String member, long nowMillis) {
        long hash = hash(key, member);
        long entry = table.getOpaque(slot(hash));
        return (entry >>> 32) == (hash >>> 32) && seconds(nowMillis) - (entry & 0xFFFF_FFFFL) < windowSeconds;
    }

    /** Notes that {@code member} of {@code key} (empty: the key itself) was written at {@code nowMillis}. */
    void wrote(String key, String member, long nowMillis) {
        long hash = hash(key, member);
        table.setOpaque(slot(hash), (hash & 0xFFFF_FFFF_0000_0000L) | seconds(nowMillis));
    }

    private static int slot(long hash) {
        return (int) hash & (SLOTS - 1);
    }

    private static long seconds(long millis) {
        return (millis / 1000) & 0xFFFF_FFFFL;
    }

    /** FNV-1a over both strings' chars, then Murmur3's finalizer so every bit depends on every char. */
    static long hash(String key, String member) {
        long h = 0xcbf29ce484222325L;
        h = fnv(h, key);
        h = (h ^ 0xFFFF) * 0x100000001b3L; // a char no string here holds, between the two
        h = fnv(h, member);
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    private static long fnv(long h, String s) {
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }
}
