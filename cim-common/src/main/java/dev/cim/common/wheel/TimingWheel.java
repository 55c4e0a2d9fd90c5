package dev.cim.common.wheel;

import java.util.function.Consumer;

/**
 * The data structure: rings of 2<sup>n</sup> buckets that file entries by due tick. No thread and
 * no clock inside; the owner passes the time to {@link #advanceTo(long)}. Not thread-safe: the
 * caller holds the wheel lock.
 *
 * <h3>The articles' ring, and what this one adds</h3>
 * The design (see the project's articles) is a ring of {@code slots} buckets and a cursor that moves
 * one bucket per tick; a job due {@code d} ticks ahead goes to bucket {@code (cursor + d) & mask}
 * with a round count {@code cycleNum = d / slots}, and each time the cursor passes it the count
 * drops by one until the job fires at zero. That visits every far-future job once per lap, so the
 * work per tick grows with the number of jobs pending. Here the round count instead picks a bucket
 * on a coarser ring: ring {@code k} has the same number of buckets, each {@code slots^k} ticks wide.
 * A job goes to the finest ring whose one lap covers its delay; when the cursor of a coarse ring
 * reaches its bucket, the bucket's jobs are filed again, now on a finer ring (the "cascade"). A job
 * is therefore touched at most once per ring, however far out it is, and a tick touches only the
 * jobs that are nearly due. Buckets are indexed by bit masks of the absolute due tick, as in the
 * articles.
 *
 * <h3>An example</h3>
 * Eight slots (three bits), two rings, cursor at tick 5, and jobs due at ticks 7, 13 and 40:
 * <pre>
 *   due 7:  delta 2  &lt; 8    ring 0, bucket  7 &amp; 7      = 7   fires at tick 7
 *   due 13: delta 8  &lt; 64   ring 1, bucket (13 &gt;&gt; 3) &amp; 7 = 1   cascades at tick 8 to ring 0, bucket 5,
 *                                                             fires at tick 13
 *   due 40: delta 35 &lt; 64   ring 1, bucket (40 &gt;&gt; 3) &amp; 7 = 5   cascades at tick 40 and fires at once
 * </pre>
 * Ring {@code k} is looked at only on ticks that are multiples of {@code slots^k}.
 *
 * <h3>Time</h3>
 * Tick {@code t} is the instant {@code origin + t * tickNanos}. An entry due at {@code deadline} is
 * due at tick {@code ceil((deadline - origin) / tickNanos)}, the first tick not before its deadline,
 * so it is never handed out early and at most one tick late.
 */
final class TimingWheel {

    private final long origin;
    private final long tickNanos;
    /** 1 / tickNanos, to estimate due ticks without a 64-bit division (tens of cycles per entry). */
    private final double ticksPerNano;
    private final int bits;
    private final int mask;
    private final WheelBucket[][] rings;
    /** The ring for a delay by the position of its highest bit: a lookup, as division is slow. */
    private final byte[] ringByLog2 = new byte[64];
    private final Consumer<WheelEntry> expired;
    private final Consumer<WheelEntry> refile = this::place;
    /** The last tick processed. */
    private long currentTick;

    /**
     * @param originNanos the instant of tick 0 on the owner's clock
     * @param tickNanos the length of a tick
     * @param slots buckets per ring, a power of two
     * @param levels the number of rings
     * @param expired receives each entry once it is due, on the thread that called into the wheel
     */
    TimingWheel(long originNanos, long tickNanos, int slots, int levels, Consumer<WheelEntry> expired) {
        assert tickNanos > 0 && Integer.bitCount(slots) == 1 && slots >= 2 && levels >= 1;
        this.origin = originNanos;
        this.tickNanos = tickNanos;
        this.ticksPerNano = 1.0 / tickNanos;
        this.bits = Integer.numberOfTrailingZeros(slots);
        this.mask = slots - 1;
        this.expired = expired;
        this.rings = new WheelBucket[levels][slots];
        for (int log2 = 0; log2 < 64; log2++) {
            ringByLog2[log2] = (byte) Math.min(log2 / bits, levels - 1);
        }
        for (WheelBucket[] ring : rings) {
            for (int i = 0; i < slots; i++) {
                ring[i] = new WheelBucket();
            }
        }
    }

    /**
     * The number of rings needed so that one lap of the coarsest covers {@code maxDelayTicks} plus
     * the tick lost to rounding up.
     */
    static int levelsFor(int slots, long maxDelayTicks) {
        int bits = Integer.numberOfTrailingZeros(slots);
        int needed = 64 - Long.numberOfLeadingZeros(maxDelayTicks + 1);
        return Math.max(1, (needed + bits - 1) / bits);
    }

    /** The last tick processed. */
    long currentTick() {
        return currentTick;
    }

    /** When the next tick is due, on the owner's clock. */
    long nextTickNanos() {
        return origin + (currentTick + 1) * tickNanos;
    }

    /** The tick at which an entry is due: the first tick not before its deadline. */
    long dueTick(WheelEntry entry) {
        return ceilTicks(entry.deadline - origin);
    }

    /**
     * {@code ceil(nanos / tickNanos)}, exactly. A floating-point estimate is off by at most one for
     * any offset below 2^62 ns, and the remainder corrects it; this is the ticker's per-entry hot
     * path, where a 64-bit division would cost more than everything else together.
     */
    long ceilTicks(long nanos) {
        long ticks = (long) (nanos * ticksPerNano);
        long rest = nanos - ticks * tickNanos;
        while (rest > 0) {
            ticks++;
            rest -= tickNanos;
        }
        while (rest <= -tickNanos) {
            ticks--;
            rest += tickNanos;
        }
        return ticks;
    }

    /** Files an entry by its due tick, or hands it to the expiry sink if that tick has passed. */
    void place(WheelEntry entry) {
        long due = dueTick(entry);
        long delta = due - currentTick;
        if (delta <= 0) {
            expired.accept(entry);
            return;
        }
        // The finest ring whose lap (2^(bits * (level + 1)) ticks) is longer than delta. Past the
        // coarsest ring's lap the entry goes round it again, filed anew each time it is reached.
        int level = ringByLog2[63 - Long.numberOfLeadingZeros(delta)];
        int index = (int) ((due >>> (bits * level)) & mask);
        rings[level][index].add(entry);
    }

    /** Removes an entry if it is filed here; O(1). */
    void remove(WheelEntry entry) {
        WheelBucket.remove(entry);
    }

    /**
     * Processes every tick up to the last one at or before {@code nowNanos}: each ring whose cursor
     * moves refiles its bucket, and ring 0 hands out the entries due. Catches up as many ticks as
     * have passed, so lateness never accumulates.
     */
    void advanceTo(long nowNanos) {
        long target = Math.floorDiv(nowNanos - origin, tickNanos);
        while (currentTick < target) {
            long tick = ++currentTick;
            if ((tick & mask) == 0) {
                for (int level = rings.length - 1; level >= 1; level--) {
                    int shift = bits * level;
                    if ((tick & ((1L << shift) - 1)) == 0) {
                        rings[level][(int) ((tick >>> shift) & mask)].drainTo(refile);
                    }
                }
            }
            rings[0][(int) (tick & mask)].drainTo(refile);
        }
    }

    /** Visits every filed entry in place. */
    void forEach(Consumer<WheelEntry> visitor) {
        for (WheelBucket[] ring : rings) {
            for (WheelBucket bucket : ring) {
                bucket.forEach(visitor);
            }
        }
    }

    /** Empties the wheel, giving every entry, unlinked, to {@code sink}. */
    void drainAll(Consumer<WheelEntry> sink) {
        for (WheelBucket[] ring : rings) {
            for (WheelBucket bucket : ring) {
                bucket.drainTo(sink);
            }
        }
    }
}
