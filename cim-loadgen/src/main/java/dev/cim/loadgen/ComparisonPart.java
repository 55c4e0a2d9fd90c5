package dev.cim.loadgen;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Part 1 on two sides alternated in one run: what TLS costs ({@code --tls=both}: a plaintext and a
 * TLS child server) or what WebSocket costs ({@code --transport=both}: a TCP and a WebSocket pool
 * on one child server), as the ratio of their closed-loop rates of private messages.
 *
 * <h3>Method</h3>
 * Each side has its own pool of {@code --users} clients on the generator's one event loop group;
 * only one side carries traffic at a time. Each side is first warmed up ({@code --warmup} of
 * closed-loop traffic, not counted: the JIT compiles each side's own path, TLS or WebSocket
 * frames included). Then {@code --rounds} rounds, each one closed-loop run ({@link ClosedLoopRun},
 * the largest {@code --window} in flight, counted over {@code --duration} after 3 s to settle) on
 * each side; the order alternates (base first, then the other first, ...), so that whatever drifts
 * over the run (the machine's heat, a neighbour process, garbage) weighs on both alike. A run that
 * lost or duplicated anything is reported and left out of the means. Before each run both sides'
 * processes must be quiet ({@link #quiet}).
 *
 * <p>The result is the other side's mean rate over the base side's; each row has the CPU per
 * message of the server that carried it and of the generator, which is where a cost shows first.
 * Each round's own ratio (its two runs, side by side in time) is reported too, with their median
 * and range: on two shared cores one side's rate moves by a fifth between consecutive runs (the
 * relay's 166,275-232,166 msg/s in six 15 s closed loops of one process, 2026-11-27), so the spread
 * of the rounds says how far the mean's ratio can be trusted.
 */
final class ComparisonPart {

    private static final Duration SETTLE = Duration.ofSeconds(3);
    private static final double QUIET_SHARE = 0.1;
    private static final Duration QUIET_WINDOW = Duration.ofMillis(500);
    private static final Duration QUIET_DEADLINE = Duration.ofSeconds(60);

    /**
     * One side: its name in the report, its logged-in users (cim clients, or a peer's), and the CPU
     * meter of its server (or broker).
     */
    record Side(String name, List<? extends ChatUser> clients, CpuMeter cpu) {
    }

    /**
     * What the ratio is held to.
     *
     * @param minimum the least ratio that meets it
     * @param text    how the report's target column says it, e.g. "≥ 0.75 (TLS costs at most 25 %)"
     */
    record Target(double minimum, String text) {
    }

    private ComparisonPart() {
    }

    /** The mean closed-loop rates of the clean runs of each side. */
    record Means(double base, double other) {
    }

    /** @return the sides' mean rates, or null when one side had no clean run */
    static Means run(Side base, Side other, Target target, LoadOptions options, Report report)
            throws InterruptedException {
        int window = options.windows().stream().max(Integer::compare).orElseThrow();
        Pairs basePairs = new Pairs(base.clients());
        Pairs otherPairs = new Pairs(other.clients());
        new ClosedLoopRun(basePairs).run(window, options.warmup(), SETTLE, base.cpu());
        new ClosedLoopRun(otherPairs).run(window, options.warmup(), SETTLE, other.cpu());
        List<Double> baseRates = new ArrayList<>();
        List<Double> otherRates = new ArrayList<>();
        List<Double> roundRatios = new ArrayList<>();
        for (int round = 1; round <= options.rounds(); round++) {
            boolean baseFirst = round % 2 == 1;
            double[] roundRates = new double[2]; // base, other; 0 when not clean
            for (boolean isOther : baseFirst ? new boolean[] {false, true} : new boolean[] {true, false}) {
                Side side = isOther ? other : base;
                Pairs pairs = isOther ? otherPairs : basePairs;
                quiet(base, other, report);
                ClosedLoopRun.Result result = new ClosedLoopRun(pairs).run(window, SETTLE, options.duration(),
                        side.cpu());
                boolean clean = result.ledger().lost() == 0 && result.ledger().duplicates() == 0;
                if (clean) {
                    (isOther ? otherRates : baseRates).add(result.perSecond());
                    roundRates[isOther ? 1 : 0] = result.perSecond();
                }
                report.add(1, String.format(Locale.ROOT, "round %d, %s: closed loop, %,d in flight between %,d users, "
                                + "counted over %ss", round, side.name(), window, pairs.clients().size(),
                                options.duration().toMillis() / 1000.0),
                        String.format(Locale.ROOT, "%,.0f msg/s%s; %s; %s", result.perSecond(),
                                clean ? "" : " (not counted: loss)", result.cpu(),
                                ThroughputPart.accounting(result.ledger(), result.receipts())),
                        "");
            }
            if (roundRates[0] > 0 && roundRates[1] > 0) {
                roundRatios.add(roundRates[1] / roundRates[0]);
            }
        }
        if (baseRates.isEmpty() || otherRates.isEmpty()) {
            report.note("part 1, " + base.name() + " and " + other.name() + ": no clean run of one of them, so no ratio");
            return null;
        }
        double baseMean = mean(baseRates);
        double otherMean = mean(otherRates);
        for (Side side : List.of(base, other)) {
            List<Double> rates = side == base ? baseRates : otherRates;
            report.add(1, side.name() + " msgs/s, mean of " + rates.size() + " runs",
                    String.format(Locale.ROOT, "%,.0f msg/s (runs %s)", mean(rates), list(rates, "%,.0f")), "");
        }
        double ratio = otherMean / baseMean;
        report.add(1, other.name() + " / " + base.name() + " closed-loop msgs/s",
                String.format(Locale.ROOT, "**%.3f** (%s costs %.1f %%; %s)", ratio, other.name(), (1 - ratio) * 100,
                        ratio >= target.minimum() ? "met" : "not met"),
                target.text());
        if (roundRatios.size() > 1) {
            report.add(1, other.name() + " / " + base.name() + " in each round (its two runs side by side)",
                    String.format(Locale.ROOT, "%s; median %.3f, from %.3f to %.3f", list(roundRatios, "%.3f"),
                            median(roundRatios), Collections.min(roundRatios), Collections.max(roundRatios)), "");
        }
        return new Means(baseMean, otherMean);
    }

    /**
     * Both sides' processes quiet (under {@value #QUIET_SHARE} of a core over half a second) before
     * a side is measured: they share the machine's cores, and what a run left one of them doing (the
     * server's history writer draining its backlog, a GC) would otherwise weigh on the other's run.
     * Noted in the report when it does not come within a minute.
     */
    static void quiet(Side base, Side other, Report report) throws InterruptedException {
        for (Side side : base.cpu() == other.cpu() ? List.of(base) : List.of(base, other)) {
            if (!side.cpu().awaitQuiet(QUIET_SHARE, QUIET_WINDOW, QUIET_DEADLINE)) {
                report.note(side.name() + " was not quiet within " + QUIET_DEADLINE.toSeconds() + " s before a run");
            }
        }
    }

    /** The middle value, or the mean of the two middle ones; NaN for none. */
    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    private static String list(List<Double> values, String format) {
        return String.join(", ", values.stream().map(v -> String.format(Locale.ROOT, format, v)).toList());
    }
}
