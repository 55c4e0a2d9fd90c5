package dev.cim.common.wheel;

import java.util.function.Consumer;

/**
 * The data structure: rings of 2<sup>n</sup> buckets that file entries by due time, a bitmap of
 * which buckets are occupied, and the arithmetic that says when the next one needs looking at. No
 * thread and no clock inside; the owner passes the time to {@link #advanceTo(long)} and asks
 * {@link #nextEventNanos()} how long it may sleep. Not thread-safe: the caller holds the wheel lock.
 *
 * <h3>The articles' ring, and what this one adds</h3>
 * The design (see the project's articles) is a ring of {@code slots} buckets and a cursor that moves
 * one bucket per tick; a job due {@code d} ticks ahead goes to bucket {@code (cursor + d) & mask}
 * with a round count {@code cycleNum = d / slots}, and each time the cursor passes it the count
 * drops by one until the job fires at zero. That visits every far-future job once per lap, so the
 * work per tick grows with the number of jobs pending; and the thread wakes every tick, due or not.
 * Here the round count instead picks a bucket on a coarser ring: ring {@code k} has the same number
 * of buckets, each {@code slots^k} slots wide. A job goes to the finest ring whose one lap covers
 * its delay; when the cursor of a coarse ring reaches its bucket, the bucket's jobs are filed again,
 * now on a finer ring (the "cascade"). A job is therefore touched at most once per ring, however far
 * out it is.
 *
 * <h3>Sleeping until something is due</h3>
 * A bit per bucket says whether it holds entries. The next moment the wheel must be looked at is,
 * over the rings, the first occupied bucket after each ring's cursor, found a 64-bit word at a time
 * ({@link OccupancyBitmap}); nothing happens in between, so {@link #advanceTo} jumps from one
 * occupied bucket to the next instead of stepping through empty slots, and the owner's thread sleeps
 * until {@link #nextEventNanos()}. A far-future job costs wake-ups only when its own coarse bucket
 * comes round to be cascaded: never one per tick.
 *
 * <h3>Each job at its own deadline</h3>
 * The finest ring does not stop at the tick: its slots are the <em>resolution</em>, the largest
 * power of two of nanoseconds not above {@code tick / slots}, so ring 1's slots are (up to that
 * rounding) one tick wide and ring 0 cuts the tick that is due into {@code slots} sub-slots. When a
 * tick-wide slot comes due its jobs cascade into the sub-slots of their own deadlines, a bucket sort
 * that costs O(1) per job, and each sub-slot fires when its own instant comes. A job due at
 * {@code deadline} fires at the first slot instant not before it, {@code ceil((deadline - origin) /
 * resolution)}: never early, and late by less than one resolution (1 µs at a 1 ms tick and 512
 * slots). A power of two makes that a shift, not a division, on every filing. An entry that reaches
 * the wheel (from the inbox, or from a cascade) when its deadline has already passed fires at once:
 * a job scheduled while the thread sleeps wakes it for its exact deadline.
 *
 * <h3>An example</h3>
 * Eight slots (three bits), two rings, cursor at slot 5, and jobs due at slots 7, 13 and 40:
 * <pre>
 *   due 7:  delta 2  &lt; 8    ring 0, bucket  7 &amp; 7      = 7   fires at slot 7
 *   due 13: delta 8  &lt; 64   ring 1, bucket (13 &gt;&gt; 3) &amp; 7 = 1   cascades at slot 8 to ring 0, bucket 5,
 *                                                             fires at slot 13
 *   due 40: delta 35 &lt; 64   ring 1, bucket (40 &gt;&gt; 3) &amp; 7 = 5   cascades at slot 40 and fires at once
 * </pre>
 * The bitmap has bits 7 (ring 0) and 1 and 5 (ring 1) set, so the events are slots 7, 8, 13 and 40,
 * and the owner sleeps through everything else.
 */
final class TimingWheel {

    /** What {@link #nextEventTick()} returns for an empty wheel. */
    static final long NO_EVENT = Long.MAX_VALUE;

    private final long origin;
    /** The resolution is {@code 1 << shift} nanoseconds: the width of a ring-0 slot. */
    private final int shift;
    private final int bits;
    private final int mask;
    /** Every ring's buckets, ring after ring, as their sentinels (see {@link WheelBucket}). */
    private final WheelEntry[] buckets;
    private final OccupancyBitmap occupied;
    private final int levels;
    /** The ring for a delay by the position of its highest bit: a lookup, as division is slow. */
    private final byte[] ringByLog2 = new byte[64];
    private final Consumer<WheelEntry> expired;
    private final Consumer<WheelEntry> refile = this::place;
    /** The last slot processed: every bucket due at or before it has been taken. */
    private long currentTick;
    /** The time of the last {@link #advanceTo}, in nanoseconds after the origin. */
    private long now;

    /**
     * @param originNanos the instant of slot 0 on the owner's clock
     * @param shift the resolution, {@code 1 << shift} nanoseconds; see {@link #resolutionShift}
     * @param slots buckets per ring, a power of two
     * @param levels the number of rings
     * @param expired receives each entry once it is due, on the thread that called into the wheel
     */
    TimingWheel(long originNanos, int shift, int slots, int levels, Consumer<WheelEntry> expired) {
        assert shift >= 0 && shift < 62 && Integer.bitCount(slots) == 1 && slots >= 2 && levels >= 1;
        this.origin = originNanos;
        this.shift = shift;
        this.bits = Integer.numberOfTrailingZeros(slots);
        this.mask = slots - 1;
        this.levels = levels;
        this.expired = expired;
        this.occupied = new OccupancyBitmap(levels, slots);
        this.buckets = new WheelEntry[levels * slots];
        for (int code = 0; code < buckets.length; code++) {
            buckets[code] = WheelBucket.create(code);
        }
        for (int log2 = 0; log2 < 64; log2++) {
            ringByLog2[log2] = (byte) Math.min(log2 / bits, levels - 1);
        }
    }

    /**
     * The resolution for a tick and a number of slots, as a shift: the largest power of two of
     * nanoseconds not above {@code tickNanos / slots}, at least 1 ns.
     */
    static int resolutionShift(long tickNanos, int slots) {
        long perSlot = Math.max(1, tickNanos / slots);
        return 63 - Long.numberOfLeadingZeros(perSlot);
    }

    /**
     * The number of rings needed so that one lap of the coarsest covers {@code maxDelaySlots} plus
     * the slot lost to rounding up.
     */
    static int levelsFor(int slots, long maxDelaySlots) {
        int bits = Integer.numberOfTrailingZeros(slots);
        int needed = 64 - Long.numberOfLeadingZeros(maxDelaySlots + 1);
        return Math.max(1, (needed + bits - 1) / bits);
    }

    /** The last slot processed. */
    long currentTick() {
        return currentTick;
    }

    /** The width of a ring-0 slot, in nanoseconds. */
    long resolutionNanos() {
        return 1L << shift;
    }

    /**
     * The slot at which an entry is due: the first slot not before its deadline. Exact for any
     * deadline within 2^62 ns of the origin: an arithmetic shift rounds towards minus infinity.
     */
    long dueTick(WheelEntry entry) {
        return (entry.deadline - origin + (1L << shift) - 1) >> shift;
    }

    /**
     * Files an entry by its due slot, or hands it to the expiry sink if its deadline is not after
     * the time of the last {@link #advanceTo}: an entry that arrives (or cascades) once its own
     * deadline has passed fires then, not at the end of its slot.
     */
    void place(WheelEntry entry) {
        long offset = entry.deadline - origin;
        if (offset <= now) {
            expired.accept(entry);
            return;
        }
        long due = (offset + (1L << shift) - 1) >> shift;
        long delta = due - currentTick; // at least 1: offset > now >= currentTick << shift
        // The finest ring whose lap (2^(bits * (level + 1)) slots) is longer than delta. Past the
        // coarsest ring's lap the entry goes round it again, filed anew each time it is reached.
        int level = ringByLog2[63 - Long.numberOfLeadingZeros(delta)];
        int code = occupied.code(level, (int) ((due >>> (bits * level)) & mask));
        WheelBucket.add(buckets[code], entry);
        occupied.set(code);
    }

    /** Removes an entry if it is filed here; O(1), and clears its bucket's bit if that empties it. */
    void remove(WheelEntry entry) {
        long emptied = WheelBucket.remove(entry);
        if (emptied != WheelBucket.STILL_OCCUPIED) {
            occupied.clear((int) emptied);
        }
    }

    /**
     * Processes every occupied bucket due up to the last slot at or before {@code nowNanos}, in
     * order: each coarse bucket whose turn has come is refiled, and ring 0 hands out the entries due.
     * Jumps straight from one occupied bucket to the next, so a catch-up after a long sleep costs the
     * buckets it finds, not the slots it crosses.
     *
     * <p>Failure-atomic: if the expiry sink throws, the bucket being taken keeps what it had not
     * handed out ({@link WheelBucket#drainTo}) and time is rewound to just before the slot being
     * processed (as Caffeine's wheel rewinds its clock), so the next call takes that slot again.
     * Entries already refiled from it stay valid for the earlier time: nothing is due in between.
     */
    void advanceTo(long nowNanos) {
        now = Math.max(now, nowNanos - origin);
        long target = now >> shift;
        for (long tick = nextEventTick(); tick <= target; tick = nextEventTick()) {
            currentTick = tick;
            try {
                expire(tick);
            } catch (RuntimeException | Error failure) {
                currentTick = tick - 1;
                throw failure;
            }
        }
        currentTick = Math.max(currentTick, target);
    }

    /** Takes the buckets of every ring whose cursor reaches slot {@code tick}, coarsest first. */
    private void expire(long tick) {
        if ((tick & mask) == 0) {
            for (int level = levels - 1; level >= 1; level--) {
                int ringShift = bits * level;
                if ((tick & ((1L << ringShift) - 1)) == 0) {
                    take(occupied.code(level, (int) ((tick >>> ringShift) & mask)));
                }
            }
        }
        take(occupied.code(0, (int) (tick & mask)));
    }

    private void take(int code) {
        if (!occupied.isSet(code)) {
            return;
        }
        occupied.clear(code); // refiling may set it again, for a later lap
        WheelEntry bucket = buckets[code];
        try {
            WheelBucket.drainTo(bucket, refile);
        } finally {
            if (!WheelBucket.isEmpty(bucket)) {
                occupied.set(code);
            }
        }
    }

    /**
     * The next slot at which a bucket needs taking, after {@link #currentTick()}, or
     * {@link #NO_EVENT} if the wheel is empty. Ring {@code k}'s cursor reaches bucket {@code i} at the
     * first multiple {@code m * slots^k} after the current slot with {@code m & mask == i}; a filed
     * entry's bucket is always reached within one lap, at or before its due slot.
     */
    long nextEventTick() {
        long best = NO_EVENT;
        for (int level = 0; level < levels; level++) {
            int ringShift = bits * level;
            long cursor = (currentTick >>> ringShift) + 1; // in this ring's slots
            if (cursor << ringShift >= best) {
                break; // coarser rings move no sooner than this one's next step
            }
            int distance = occupied.distanceToNext(level, (int) (cursor & mask));
            if (distance >= 0) {
                best = Math.min(best, (cursor + distance) << ringShift);
            }
        }
        return best;
    }

    /**
     * When {@link #nextEventTick()} comes, in nanoseconds after the origin, or {@link #NO_EVENT}.
     */
    long nextEventNanos() {
        long tick = nextEventTick();
        return tick == NO_EVENT ? NO_EVENT : tick << shift;
    }

    /** Visits every filed entry in place. */
    void forEach(Consumer<WheelEntry> visitor) {
        for (WheelEntry bucket : buckets) {
            WheelBucket.forEach(bucket, visitor);
        }
    }

    /** Empties the wheel, giving every entry, unlinked, to {@code sink}. */
    void drainAll(Consumer<WheelEntry> sink) {
        for (int code = 0; code < buckets.length; code++) {
            occupied.clear(code);
            WheelBucket.drainTo(buckets[code], sink);
        }
    }
}
