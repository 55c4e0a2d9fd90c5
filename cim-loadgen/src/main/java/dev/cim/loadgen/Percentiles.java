package dev.cim.loadgen;

import java.util.Arrays;
import java.util.Locale;

/**
 * A summary of recorded durations, by the nearest-rank method: the p-th percentile is the smallest
 * value that at least p % of the values do not exceed (so p100 is the maximum, and no value is
 * interpolated that was never measured).
 *
 * @param count how many values
 * @param p50   the median, nanoseconds
 * @param p99   nanoseconds
 * @param p999  the 99.9th percentile, nanoseconds
 * @param max   nanoseconds
 */
record Percentiles(int count, long p50, long p99, long p999, long max) {

    static final Percentiles EMPTY = new Percentiles(0, 0, 0, 0, 0);

    /** Summarizes {@code values}, sorting them in place. */
    static Percentiles of(long[] values, int count) {
        if (count == 0) {
            return EMPTY;
        }
        Arrays.sort(values, 0, count);
        return new Percentiles(count, rank(values, count, 500), rank(values, count, 990), rank(values, count, 999),
                values[count - 1]);
    }

    /**
     * The nearest-rank percentile, given in per mille, of the first {@code count} sorted values.
     * Integer arithmetic: in doubles 99.9 / 100 * 1000 is a hair over 999 and would round up to 1000.
     */
    static long rank(long[] sorted, int count, int perMille) {
        long rank = ((long) perMille * count + 999) / 1000;
        return sorted[(int) Math.max(0, Math.min(count, rank) - 1)];
    }

    /** "p50 1.234 / p99 5.678 / p99.9 9.012 / max 12.345 ms (n=1000)". */
    String toMillis() {
        if (count == 0) {
            return "no values";
        }
        return String.format(Locale.ROOT, "p50 %s / p99 %s / p99.9 %s / max %s ms (n=%,d)", ms(p50), ms(p99), ms(p999),
                ms(max), count);
    }

    /** Like {@link #toMillis()} without the 99.9th percentile. */
    String toMillisShort() {
        if (count == 0) {
            return "no values";
        }
        return String.format(Locale.ROOT, "p50 %s / p99 %s / max %s ms (n=%,d)", ms(p50), ms(p99), ms(max), count);
    }

    static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }
}
