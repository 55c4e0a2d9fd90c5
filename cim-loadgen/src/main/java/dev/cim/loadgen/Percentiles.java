package dev.cim.loadgen;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * A summary of recorded durations, read from an HdrHistogram (values within 0.1 % of what was
 * recorded; the maximum is exact to that precision too).
 *
 * @param count how many values
 * @param p50   the median, nanoseconds
 * @param p99   nanoseconds
 * @param p999  the 99.9th percentile, nanoseconds
 * @param max   nanoseconds
 */
record Percentiles(long count, long p50, long p99, long p999, long max) {

    static final Percentiles EMPTY = new Percentiles(0, 0, 0, 0, 0);

    static Percentiles of(Histogram histogram) {
        if (histogram.getTotalCount() == 0) {
            return EMPTY;
        }
        return new Percentiles(histogram.getTotalCount(), histogram.getValueAtPercentile(50),
                histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9), histogram.getMaxValue());
    }

    /** Summarizes the first {@code count} of {@code values}. */
    static Percentiles of(long[] values, int count) {
        Histogram histogram = new Histogram(3);
        for (int i = 0; i < count; i++) {
            histogram.recordValue(Math.max(0, values[i]));
        }
        return of(histogram);
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
