package dev.cim.loadgen;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Part 1 with TLS on and off, alternated in one run ({@code --tls=both}): what TLS costs the
 * closed-loop rate of private messages.
 *
 * <h3>Method</h3>
 * Two child servers of the same jar, heap and settings, side by side, one plaintext and one with
 * TLS, each with its own pool of {@code --users} clients on the generator's one event loop group;
 * only one of them carries traffic at a time. Each pool is first warmed up ({@code --warmup} of
 * closed-loop traffic, not counted: each server's JIT compiles its own path, TLS included). Then
 * {@code --tls-rounds} rounds, each one closed-loop run ({@link ClosedLoopRun}, the largest
 * {@code --window} in flight, counted over {@code --duration} after 3 s to settle) on each server;
 * the order alternates (plaintext first, then TLS first, ...), so that whatever drifts over the run
 * (the machine's heat, a neighbour process, garbage) weighs on both alike. A run that lost or
 * duplicated anything is reported and left out of the means.
 *
 * <p>The result is the mean TLS rate over the mean plaintext rate; the target is a cost of
 * at most 25 %, a ratio of at least 0.75. Each row has the CPU per message of the server that
 * carried it and of the generator, which is where TLS's cost shows first.
 */
final class TlsComparisonPart {

    private static final Duration SETTLE = Duration.ofSeconds(3);

    private TlsComparisonPart() {
    }

    static void run(List<LoadClient> plainClients, List<LoadClient> tlsClients, LoadOptions options, CpuMeter plainCpu,
            CpuMeter tlsCpu, Report report) throws InterruptedException {
        int window = options.windows().stream().max(Integer::compare).orElseThrow();
        Pairs plain = new Pairs(plainClients);
        Pairs tls = new Pairs(tlsClients);
        new ClosedLoopRun(plain).run(window, options.warmup(), SETTLE, plainCpu);
        new ClosedLoopRun(tls).run(window, options.warmup(), SETTLE, tlsCpu);
        List<Double> plainRates = new ArrayList<>();
        List<Double> tlsRates = new ArrayList<>();
        for (int round = 1; round <= options.tlsRounds(); round++) {
            boolean plainFirst = round % 2 == 1;
            for (boolean isTls : plainFirst ? new boolean[] {false, true} : new boolean[] {true, false}) {
                ClosedLoopRun.Result result = new ClosedLoopRun(isTls ? tls : plain)
                        .run(window, SETTLE, options.duration(), isTls ? tlsCpu : plainCpu);
                boolean clean = result.ledger().lost() == 0 && result.ledger().duplicates() == 0;
                if (clean) {
                    (isTls ? tlsRates : plainRates).add(result.perSecond());
                }
                report.add(1, String.format(Locale.ROOT, "round %d, %s: closed loop, %,d in flight between %,d users, "
                                + "counted over %ss", round, isTls ? "TLS" : "plaintext", window,
                                (isTls ? tls : plain).clients().size(), options.duration().toMillis() / 1000.0),
                        String.format(Locale.ROOT, "%,.0f msg/s%s; %s; %s", result.perSecond(),
                                clean ? "" : " (not counted: loss)", result.cpu(),
                                ThroughputPart.accounting(result.ledger(), result.receipts())),
                        "");
            }
        }
        if (plainRates.isEmpty() || tlsRates.isEmpty()) {
            report.note("part 1 with TLS on and off: no clean run of one of them, so no ratio");
            return;
        }
        double plainMean = mean(plainRates);
        double tlsMean = mean(tlsRates);
        report.add(1, "plaintext msgs/s, mean of " + plainRates.size() + " runs",
                String.format(Locale.ROOT, "%,.0f msg/s (runs %s)", plainMean, list(plainRates)), "");
        report.add(1, "TLS msgs/s, mean of " + tlsRates.size() + " runs",
                String.format(Locale.ROOT, "%,.0f msg/s (runs %s)", tlsMean, list(tlsRates)), "");
        double ratio = tlsMean / plainMean;
        report.add(1, "TLS / plaintext closed-loop msgs/s",
                String.format(Locale.ROOT, "**%.3f** (TLS costs %.1f %%)", ratio, (1 - ratio) * 100),
                "≥ 0.75 (TLS costs at most 25 %)");
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    private static String list(List<Double> values) {
        return String.join(", ", values.stream().map(v -> String.format(Locale.ROOT, "%,.0f", v)).toList());
    }
}
