package dev.cim.server.chat.origin;

import java.util.TreeSet;

/**
 * A set of request numbers of one origin, routed and not yet resolved: numbers added mostly in
 * increasing order and removed mostly soon after, so those held lie in a narrow, sliding range. Not
 * thread-safe.
 *
 * <h3>A ring of bits</h3>
 * The numbers in {@code [base, base + capacity)} are bits of a ring of {@code long} words, number
 * {@code n} at bit {@code n mod capacity}: adding and removing one sets and clears a bit, and
 * consecutive numbers share a word (a hash map put each in a random slot: a cache miss for each on
 * the thread that resolved it, and in a profile of the closed-loop load that map took 8 % of the
 * server's samples). The range slides up when a number above it is added and the numbers at its
 * bottom are gone; it doubles, up to {@value #MAX_BITS} numbers, when they are not.
 *
 * <p>Numbers below the range (a number sent again after a refusal, see {@link Origin#retry}) and
 * above it at its largest (a client that leaves a message unresolved far behind, or skips ahead)
 * go to a sorted overflow set instead, so memory stays bounded by the numbers held whatever numbers
 * a client sends.
 */
final class PendingSequences {

    /** Bits of the first ring: 4 words. */
    static final int FIRST_BITS = 256;
    /** Bits of the largest ring, 8 KB: above the default's 10,000 unresolved per origin. */
    static final int MAX_BITS = 1 << 16;

    /** Made at the first add: an origin that never sends costs no ring. */
    private long[] words;
    /** The lowest number the ring holds; a multiple of 64. */
    private long base;
    private int inRing;
    /** Numbers outside the ring's range when added; made at the first. */
    private TreeSet<Long> overflow;

    /** Adds {@code sequence}, which must not be held already. */
    void add(long sequence) {
        if (words == null) {
            words = new long[FIRST_BITS / Long.SIZE];
        }
        if (inRing == 0) {
            base = sequence & ~(Long.SIZE - 1L);
        } else if (sequence >= base && !inRange(sequence)) {
            slideOrGrowFor(sequence);
        }
        boolean added;
        if (inRange(sequence)) {
            added = !inRing(sequence);
            if (added) {
                words[wordOf(sequence, words.length)] |= 1L << sequence;
                inRing++;
            }
        } else {
            if (overflow == null) {
                overflow = new TreeSet<>();
            }
            added = overflow.add(sequence);
        }
        if (!added) {
            throw new IllegalStateException("request " + sequence + " is pending already (expected: each added once)");
        }
    }

    /** Removes {@code sequence}; true when it was held. */
    boolean remove(long sequence) {
        if (inRing > 0 && inRange(sequence) && inRing(sequence)) {
            words[wordOf(sequence, words.length)] &= ~(1L << sequence);
            inRing--;
            return true;
        }
        return overflow != null && overflow.remove(sequence);
    }

    boolean contains(long sequence) {
        return (inRing > 0 && inRange(sequence) && inRing(sequence))
                || (overflow != null && overflow.contains(sequence));
    }

    int size() {
        return inRing + (overflow == null ? 0 : overflow.size());
    }

    /** The lowest number held, or {@link Long#MAX_VALUE} when none is. */
    long lowest() {
        long lowest = overflow == null || overflow.isEmpty() ? Long.MAX_VALUE : overflow.first();
        if (inRing > 0) {
            lowest = Math.min(lowest, lowestInRing());
        }
        return lowest;
    }

    private int capacity() {
        return words.length * Long.SIZE;
    }

    /** True when {@code sequence} lies in the ring's range (written so that no sum overflows). */
    private boolean inRange(long sequence) {
        return sequence >= base && sequence - base < capacity();
    }

    /** Its bit is set; {@code sequence} in range. */
    private boolean inRing(long sequence) {
        return (words[wordOf(sequence, words.length)] & (1L << sequence)) != 0;
    }

    /** The word of {@code sequence} in a ring of {@code length} words (a power of two). */
    private static int wordOf(long sequence, int length) {
        return (int) ((sequence >>> 6) & (length - 1));
    }

    private long lowestInRing() {
        for (long start = base; ; start += Long.SIZE) {
            long bits = words[wordOf(start, words.length)];
            if (bits != 0) {
                return start + Long.numberOfTrailingZeros(bits);
            }
        }
    }

    /**
     * Makes room for {@code sequence}, above the range: the range starts at the word of the lowest
     * number held, then doubles while it is too small and may.
     */
    private void slideOrGrowFor(long sequence) {
        base = lowestInRing() & ~(Long.SIZE - 1L);
        while (!inRange(sequence) && capacity() < MAX_BITS) {
            long[] grown = new long[words.length * 2];
            for (long start = base; inRange(start); start += Long.SIZE) {
                grown[wordOf(start, grown.length)] = words[wordOf(start, words.length)];
            }
            words = grown;
        }
    }
}
