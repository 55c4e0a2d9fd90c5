package dev.cim.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The values of a measurement repeated in rounds: the first {@code warmup} rounds are dropped (JIT
 * compilation, heap sizing), and the rest are summarised as median and min-max.
 */
final class RoundStats {

    private final int warmup;
    private final List<Double> kept = new ArrayList<>();
    private int seen;

    RoundStats(int warmup) {
        this.warmup = warmup;
    }

    /** Records one round's value; returns whether it was kept. */
    boolean add(double value) {
        if (seen++ < warmup) {
            return false;
        }
        kept.add(value);
        return true;
    }

    boolean isEmpty() {
        return kept.isEmpty();
    }

    double median() {
        List<Double> sorted = sorted();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    double min() {
        return sorted().get(0);
    }

    double max() {
        List<Double> sorted = sorted();
        return sorted.get(sorted.size() - 1);
    }

    private List<Double> sorted() {
        if (kept.isEmpty()) {
            throw new IllegalStateException("no rounds kept (" + seen + " seen, " + warmup + " warm-up)");
        }
        List<Double> sorted = new ArrayList<>(kept);
        sorted.sort(null);
        return sorted;
    }

    /** "median (min–max)" with the given number of decimals. */
    String format(int decimals) {
        String number = "%." + decimals + "f";
        if (kept.size() == 1) {
            return String.format(Locale.ROOT, number, median());
        }
        return String.format(Locale.ROOT, number + " (" + number + "–" + number + ")", median(), min(), max());
    }
}
