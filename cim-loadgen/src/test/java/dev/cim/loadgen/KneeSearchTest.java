package dev.cim.loadgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Test;

class KneeSearchTest {

    @Test
    void findsTheKneeBelowTheFirstPoint_toAThirtySecondOfIt() {
        KneeSearch search = KneeSearch.over(curve(0.05, 0.10, 0.20));
        double found = probe(search, rate -> rate <= 3_000); // the first point, 5,000, is already over

        assertEquals(3_125 - 5_000 / 32.0, found, 1e-9); // within: 2,500, 2,812.5; then over 3,125
        assertTrue(found <= 3_000 && found > 3_000 - 5_000 / 32.0, "found " + found);
    }

    @Test
    void startsFromTheHighestPointWithinBelowTheFirstOver_andBelievesNoPointAboveIt() {
        // 5 % and 10 % within, 20 % over, 35 % within again (noise): the knee is between 10 and 20 %.
        List<LatencyCurve.Point> points = curve(0.05, 0.10, 0.20, 0.35);
        points.set(0, point(5_000, 1));
        points.set(1, point(10_000, 2));
        points.set(3, point(35_000, 1));
        KneeSearch search = KneeSearch.over(points);
        double found = probe(search, rate -> rate <= 16_000);

        assertTrue(found > 16_000 - 10_000 / 32.0 && found <= 16_000, "found " + found);
    }

    @Test
    void aCurveWithinTheBoundEverywhere_hasNothingToSearch() {
        KneeSearch search = KneeSearch.over(List.of(point(5_000, 1), point(10_000, 2)));

        assertFalse(search.searching());
        assertEquals(10_000, search.highestWithin());
        assertThrows(IllegalStateException.class, search::next);
    }

    @Test
    void aSideNeverWithinTheBound_findsZero() {
        KneeSearch search = KneeSearch.over(curve(0.05));

        assertEquals(0, probe(search, rate -> false));
    }

    /** Probes until the search is over, each probe within the bound when {@code within} says so. */
    private static double probe(KneeSearch search, DoublePredicate within) {
        int probes = 0;
        while (search.searching()) {
            search.probed(within.test(search.next()));
            probes++;
        }
        assertEquals(KneeSearch.STEPS, probes);
        return search.highestWithin();
    }

    /** Points at these fractions of 100,000 msg/s, each over the bound (p99 of 8 ms). */
    private static List<LatencyCurve.Point> curve(double... fractions) {
        List<LatencyCurve.Point> points = new ArrayList<>();
        for (double fraction : fractions) {
            points.add(point(fraction * 100_000, 8));
        }
        return points;
    }

    private static LatencyCurve.Point point(double offered, long p99Millis) {
        long p99 = TimeUnit.MILLISECONDS.toNanos(p99Millis);
        return new LatencyCurve.Point(offered, Instant.EPOCH, new PacedRun.Result(offered, 1000, 0,
                new Percentiles(1000, p99 / 2, p99, p99, p99), Percentiles.EMPTY,
                new DeliveryLedger(16), new ReceiptCounts(), "CPU per message: server 1 µs, generator 1 µs"));
    }
}
