package dev.cim.loadgen;

import java.util.List;

/**
 * Where one side's latency curve leaves the bound, found to a finer step than its eight points: it
 * starts between the highest point within the bound below the first that is not (or 0, when the
 * first is not) and that first point, and halves that gap {@value #STEPS} times, each probe a paced
 * run of its own. The answer is the highest rate probed that kept within the bound; past the first
 * point that did not, a point that did is taken for noise and not believed. One probe decides each
 * halving, so a single slow probe (a stall of the machine) moves the answer by half the gap: with
 * {@code --knee-searches} the search runs several times and the median of the answers counts
 * ({@link ComparisonPart#median}). Only the arithmetic is here; {@link LatencyCurve} runs the probes.
 */
final class KneeSearch {

    /** Halvings of the gap: 1/32 of it is left, 1/640 of the curve's top when the first point is over. */
    static final int STEPS = 5;

    private double within;
    private double over;
    private int probes;

    private KneeSearch(double within, double over) {
        this.within = within;
        this.over = over;
    }

    /**
     * @param points a side's curve, by rising offered rate
     */
    static KneeSearch over(List<LatencyCurve.Point> points) {
        double within = 0;
        for (LatencyCurve.Point point : points) {
            if (!point.clean()) {
                return new KneeSearch(within, point.offered());
            }
            within = point.offered();
        }
        return new KneeSearch(within, Double.NaN); // every point within: nothing to search
    }

    /** True while there is a rate left to probe. */
    boolean searching() {
        return !Double.isNaN(over) && probes < STEPS;
    }

    /** The rate to probe next, halfway between the highest known within and the lowest known over. */
    double next() {
        if (!searching()) {
            throw new IllegalStateException("the search is over (expected: searching() before next())");
        }
        return (within + over) / 2;
    }

    /** What the probe of {@link #next()} found. */
    void probed(boolean clean) {
        double rate = next();
        if (clean) {
            within = rate;
        } else {
            over = rate;
        }
        probes++;
    }

    /** The highest rate found within the bound, 0 if none. */
    double highestWithin() {
        return within;
    }
}
