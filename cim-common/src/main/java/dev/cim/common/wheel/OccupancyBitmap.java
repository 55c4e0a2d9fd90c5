package dev.cim.common.wheel;

/**
 * Which buckets of each ring hold entries: one bit per bucket, {@code slots / 64} words per ring (one
 * word for rings of up to 64 slots). It is what lets the wheel sleep: the next bucket that needs
 * looking at is the first set bit after a ring's cursor, found a word at a time with
 * {@link Long#numberOfTrailingZeros(long)} (8 words for a 512-slot ring) instead of one tick at a
 * time. Not thread-safe: only the owner of the wheel touches it.
 *
 * <p>Buckets are named by their slot code {@code level * slots + index}, the number a bucket's
 * sentinel carries so that an O(1) unlink can clear the bit of the bucket it empties.
 */
final class OccupancyBitmap {

    private final int slots;
    private final int mask;
    private final int wordsPerRing;
    /** A code's word is {@code code >>> wordShift} and its bit {@code code & bitMask} (see below). */
    private final int wordShift;
    private final int bitMask;
    private final long[] words;

    OccupancyBitmap(int levels, int slots) {
        assert Integer.bitCount(slots) == 1 && slots >= 2 && levels >= 1;
        this.slots = slots;
        this.mask = slots - 1;
        this.wordsPerRing = Math.max(1, slots >>> 6);
        // With 64 slots or more a ring fills whole words, so a code is a plain bit number; with fewer
        // each ring has a word of its own and the code's index within the ring is the bit.
        this.wordShift = slots >= 64 ? 6 : Integer.numberOfTrailingZeros(slots);
        this.bitMask = slots >= 64 ? 63 : mask;
        this.words = new long[levels * wordsPerRing];
    }

    /** The slot code of bucket {@code index} of ring {@code level}. */
    int code(int level, int index) {
        return level * slots + index;
    }

    void set(int code) {
        words[word(code)] |= bit(code);
    }

    void clear(int code) {
        words[word(code)] &= ~bit(code);
    }

    boolean isSet(int code) {
        return (words[word(code)] & bit(code)) != 0;
    }

    private int word(int code) {
        return code >>> wordShift;
    }

    private long bit(int code) {
        return 1L << (code & bitMask);
    }

    /**
     * How many buckets after {@code start} (0 for {@code start} itself, going round the ring) the
     * first occupied bucket of ring {@code level} is, or -1 if the ring is empty.
     */
    int distanceToNext(int level, int start) {
        int base = level * wordsPerRing;
        int word = start >>> 6;
        // Bits at or after start in its word; a ring of fewer than 64 slots uses only its low bits.
        long bits = words[base + word] & (-1L << (start & 63));
        for (int looked = 0; looked <= wordsPerRing; looked++) {
            if (bits != 0) {
                int index = (word << 6) + Long.numberOfTrailingZeros(bits);
                return (index - start) & mask;
            }
            word = (word + 1) & (wordsPerRing - 1); // wordsPerRing is a power of two
            bits = words[base + word]; // the start word again last: its bits before start
        }
        return -1;
    }
}
