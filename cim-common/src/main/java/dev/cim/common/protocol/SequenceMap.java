package dev.cim.common.protocol;

import io.netty.util.collection.LongObjectHashMap;
import java.util.Collection;
import java.util.List;

/**
 * Values by sequence number (a client's request numbers, see {@link MessageIds}), for numbers taken
 * in order and let go mostly in order: a window that slides. Not thread-safe.
 *
 * <h3>Why not Netty's map as it is</h3>
 * {@link LongObjectHashMap} places a key at its hash masked to the table, probes linearly, and
 * hashes a small key to itself: a window of {@code n} consecutive numbers fills one run of {@code n}
 * adjacent slots, a lookup of the oldest walks the run, and removing it walks the run again to
 * close the gap, so each message costs {@code O(n)}. Here every key is first multiplied by an odd
 * constant (2<sup>64</sup> divided by the golden ratio, as in Fibonacci hashing), a one-to-one map of
 * {@code long} that sends consecutive numbers far apart, and runs stay short at any window
 * ({@code SequenceMapBenchmark} in cim-benchmark: 73 against 48 ns per message at 20 outstanding,
 * 339 against 102 ns at 200; BENCHMARKS.md).
 *
 * @param <V> the values; each should know its own number (the map's keys are not handed out)
 */
public final class SequenceMap<V> {

    /** 2^64 / golden ratio, odd: multiplying by it is a bijection of long. */
    private static final long SPREAD = 0x9E3779B97F4A7C15L;

    /**
     * Made at the first {@link #put}: a map that never holds anything (the origin of a client that
     * only stays connected) costs no table.
     */
    private LongObjectHashMap<V> map;

    private static long key(long sequence) {
        return sequence * SPREAD;
    }

    /** Maps {@code sequence} to {@code value}; returns the value it replaced, or null. */
    public V put(long sequence, V value) {
        if (map == null) {
            map = new LongObjectHashMap<>();
        }
        return map.put(key(sequence), value);
    }

    /** The value of {@code sequence}, or null. */
    public V get(long sequence) {
        return map == null ? null : map.get(key(sequence));
    }

    /** Removes {@code sequence}; returns its value, or null when it had none. */
    public V remove(long sequence) {
        return map == null ? null : map.remove(key(sequence));
    }

    public boolean containsKey(long sequence) {
        return map != null && map.containsKey(key(sequence));
    }

    public int size() {
        return map == null ? 0 : map.size();
    }

    /**
     * The values, in no particular order; a view (see {@link java.util.Map#values()}), but an empty
     * list before the first {@link #put}.
     */
    public Collection<V> values() {
        return map == null ? List.of() : map.values();
    }

    public void clear() {
        if (map != null) {
            map.clear();
        }
    }
}
