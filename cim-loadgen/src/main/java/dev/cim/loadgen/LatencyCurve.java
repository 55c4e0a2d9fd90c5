package dev.cim.loadgen;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Part 1's latency curve on two sides ({@code --against}): send→receipt latency at eight offered
 * rates, from 5 to 100 % of the faster side's closed-loop rate, each rate on both sides in turn
 * (alternating which goes first), so that the knee of each curve shows against the other's. Each
 * measured run ({@link PacedRun}, {@code --latency-duration}) waits until both processes are quiet,
 * then follows two seconds of the same traffic that are not counted; ten seconds of paced traffic
 * on each side come before the first (a closed loop leaves other code compiled than paced traffic
 * runs: a profile of the first paced point after one found the JIT compiler taking 40 % of both
 * processes' CPU). The highest rate at which each side kept p99 within 5 ms, with nothing lost and
 * everything offered, is searched below the first point that did not ({@link KneeSearch}; with
 * {@code --knee-searches} several times over, the median counting), and at
 * how many of the rates both sides sustain at all ({@link Point#sustained()}) the first side's p99 is
 * the lower; the curve is also drawn to a PNG ({@link CurvePlot}).
 */
final class LatencyCurve {

    static final double[] FRACTIONS = {0.05, 0.10, 0.20, 0.35, 0.50, 0.65, 0.80, 1.00};
    private static final Duration LEAD_IN = Duration.ofSeconds(2);
    /** Paced traffic on each side before the first point, not counted: what it runs is compiled by then. */
    private static final Duration WARM_UP = Duration.ofSeconds(10);
    private static final long P99_BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** A p99 from which on a side is taken not to carry the rate at all. */
    private static final long SUSTAINED_P99_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final DateTimeFormatter STARTED = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    /** One rate on one side, measured from {@code started} (wall clock: to set beside other processes' logs). */
    record Point(double offered, Instant started, PacedRun.Result result) {

        /** Within the bound, nothing lost, duplicated or left unoffered. */
        boolean clean() {
            return sustained() && result.latency().p99() <= P99_BOUND_NANOS;
        }

        /**
         * Carried at all: everything offered, nothing lost or duplicated, and a p99 under a second (a
         * rate beyond what a side carries builds a backlog, whose latency reaches seconds within a run).
         */
        boolean sustained() {
            return result.latency().p99() < SUSTAINED_P99_NANOS && result.notOffered() == 0
                    && result.ledger().lost() == 0 && result.ledger().duplicates() == 0;
        }
    }

    /** One side's curve. */
    record Curve(String name, List<Point> points) {
    }

    private LatencyCurve() {
    }

    /**
     * @param top      the faster side's closed-loop rate: 100 % of the curve
     * @param target   what the other side's share of the base's highest rate within the bound is held to
     * @param lowerP99 what the share of the rates both sustain at which the other side's p99 is the
     *                 lower is held to (1 for every one of them), or a target with no text for none
     */
    static void run(ComparisonPart.Side base, ComparisonPart.Side other, double top, ComparisonPart.Target target,
            ComparisonPart.Target lowerP99, LoadOptions options, Report report) throws InterruptedException {
        Curve baseCurve = new Curve(base.name(), new ArrayList<>());
        Curve otherCurve = new Curve(other.name(), new ArrayList<>());
        Pairs basePairs = new Pairs(base.clients());
        Pairs otherPairs = new Pairs(other.clients());
        for (boolean isOther : new boolean[] {false, true}) { // the paced pattern compiled before it counts
            ComparisonPart.quiet(base, other, report);
            new PacedRun(isOther ? otherPairs : basePairs, isOther ? "wo" : "wb", top * FRACTIONS[0], WARM_UP)
                    .run((isOther ? other : base).cpu());
        }
        for (int i = 0; i < FRACTIONS.length; i++) {
            double rate = top * FRACTIONS[i];
            boolean baseFirst = i % 2 == 0;
            for (boolean isOther : baseFirst ? new boolean[] {false, true} : new boolean[] {true, false}) {
                ComparisonPart.Side side = isOther ? other : base;
                Pairs pairs = isOther ? otherPairs : basePairs;
                Point point = measure(base, other, side, pairs, "k" + i + (isOther ? "o" : "b"), rate, options, report);
                (isOther ? otherCurve : baseCurve).points().add(point);
            }
            Point b = baseCurve.points().get(i);
            Point o = otherCurve.points().get(i);
            report.add(1, String.format(Locale.ROOT, "latency send→receipt at %.0f %% (%,.0f msg/s offered for %ss)",
                            FRACTIONS[i] * 100, rate, options.latencyDuration().toMillis() / 1000.0),
                    other.name() + ": " + describe(o) + "; " + base.name() + ": " + describe(b), "");
        }
        int searches = options.kneeSearches();
        List<Double> baseHighest = new ArrayList<>();
        List<Double> otherHighest = new ArrayList<>();
        for (int n = 0; n < searches; n++) {
            String name = searches == 1 ? "knee search" : "knee search " + (n + 1);
            KneeSearch baseKnee = KneeSearch.over(baseCurve.points());
            KneeSearch otherKnee = KneeSearch.over(otherCurve.points());
            for (int step = 0; baseKnee.searching() || otherKnee.searching(); step++) {
                boolean baseFirst = (n + step) % 2 == 0;
                for (boolean isOther : baseFirst ? new boolean[] {false, true} : new boolean[] {true, false}) {
                    KneeSearch search = isOther ? otherKnee : baseKnee;
                    if (!search.searching()) {
                        continue;
                    }
                    ComparisonPart.Side side = isOther ? other : base;
                    Pairs pairs = isOther ? otherPairs : basePairs;
                    double rate = search.next();
                    String tag = (n == 0 ? "" : "r" + n) + "s" + step + (isOther ? "o" : "b");
                    Point point = measure(base, other, side, pairs, tag, rate, options, report);
                    search.probed(point.clean());
                    report.add(1, String.format(Locale.ROOT, "%s, step %d, %s: %,.0f msg/s offered for %ss", name,
                            step + 1, side.name(), rate, options.latencyDuration().toMillis() / 1000.0),
                            describe(point) + (point.clean() ? " (within 5 ms)" : " (over)"), "");
                }
            }
            baseHighest.add(baseKnee.highestWithin());
            otherHighest.add(otherKnee.highestWithin());
            if (searches > 1) {
                report.add(1, name + ": highest offered rate with p99 ≤ 5 ms",
                        highest(other, otherKnee.highestWithin(), base, baseKnee.highestWithin(), null), "");
            }
        }
        String how = "the highest such point below the first that is not, then " + KneeSearch.STEPS
                + " halvings of the gap to it";
        report.add(1, "highest offered rate with p99 ≤ 5 ms (nothing lost, all offered): "
                        + (searches == 1 ? how : "the median of " + searches + " searches, each " + how),
                highest(other, ComparisonPart.median(otherHighest), base, ComparisonPart.median(baseHighest), target),
                target.text());
        compareP99(baseCurve, otherCurve, lowerP99, report);
        try {
            CurvePlot.write(options.plot(), List.of(otherCurve, baseCurve));
            report.note("latency curve plotted to " + options.plot().toAbsolutePath());
        } catch (IOException | RuntimeException e) {
            report.note("latency curve: could not write " + options.plot() + ": " + e);
        }
    }

    /**
     * One rate on {@code side} (base's or other's): once both sides are quiet, {@link #LEAD_IN} of the
     * traffic not counted, then {@code --latency-duration} measured.
     */
    private static Point measure(ComparisonPart.Side base, ComparisonPart.Side other, ComparisonPart.Side side,
            Pairs pairs, String tag, double rate, LoadOptions options, Report report) throws InterruptedException {
        ComparisonPart.quiet(base, other, report);
        new PacedRun(pairs, tag + "w", rate, LEAD_IN).run(side.cpu());
        Instant started = Instant.now();
        return new Point(rate, started, new PacedRun(pairs, tag, rate, options.latencyDuration())
                .logTo(options.latencyLogFile(side.name() + "-" + tag, rate)).run(side.cpu()));
    }

    /** "other X msg/s, base Y msg/s: **ratio**", with whether {@code target} (if given, with a text) is met. */
    private static String highest(ComparisonPart.Side other, double otherHighest, ComparisonPart.Side base,
            double baseHighest, ComparisonPart.Target target) {
        String ratio = baseHighest > 0 ? String.format(Locale.ROOT, "**%.2f**", otherHighest / baseHighest) : "no ratio";
        String verdict = target == null || target.text().isEmpty() || baseHighest <= 0 ? ""
                : otherHighest / baseHighest >= target.minimum() ? " (met)" : " (not met)";
        return String.format(Locale.ROOT, "%s %,.0f msg/s, %s %,.0f msg/s: %s%s", other.name(), otherHighest,
                base.name(), baseHighest, ratio, verdict);
    }

    /** At how many of the rates both sides sustain the other side's p99 is below the base's, and where it is not. */
    private static void compareP99(Curve base, Curve other, ComparisonPart.Target target, Report report) {
        int both = 0;
        List<String> notLower = new ArrayList<>();
        for (int i = 0; i < base.points().size(); i++) {
            Point b = base.points().get(i);
            Point o = other.points().get(i);
            if (!b.sustained() || !o.sustained()) {
                continue;
            }
            both++;
            if (o.result().latency().p99() >= b.result().latency().p99()) {
                notLower.add(String.format(Locale.ROOT, "%,.0f msg/s (%s %s ms, %s %s ms)", o.offered(), other.name(),
                        Percentiles.ms(o.result().latency().p99()), base.name(),
                        Percentiles.ms(b.result().latency().p99())));
            }
        }
        int lower = both - notLower.size();
        String result = both == 0 ? "no rate that both sustain"
                : String.format(Locale.ROOT, "**lower at %d of %d**%s%s", lower, both,
                        notLower.isEmpty() ? "" : "; not at " + String.join(", ", notLower),
                        target.text().isEmpty() ? "" : lower >= target.minimum() * both ? " (met)" : " (not met)");
        report.add(1, other.name() + "'s p99 against " + base.name() + "'s at the rates both sustain (all offered, "
                + "nothing lost, p99 < " + TimeUnit.NANOSECONDS.toSeconds(SUSTAINED_P99_NANOS) + " s)", result,
                target.text());
    }

    private static String describe(Point point) {
        PacedRun.Result r = point.result();
        return "from " + STARTED.format(point.started()) + " UTC, " + r.latency().toMillis()
                + " (the generator's lag before writing: p99 " + Percentiles.ms(r.senderLag().p99()) + " ms), "
                + r.cpu().replace("CPU per message: ", "CPU/msg ")
                + (r.ledger().lost() + r.ledger().duplicates() > 0
                        ? ", lost " + r.ledger().lost() + ", duplicated " + r.ledger().duplicates() : "")
                + (r.receipts().refused() > 0 ? " (" + r.receipts() + ")" : "")
                + (r.notOffered() > 0 ? ", " + r.notOffered() + " not offered (pacer behind)" : "");
    }
}
