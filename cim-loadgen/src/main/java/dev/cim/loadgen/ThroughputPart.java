package dev.cim.loadgen;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Part 1, throughput and latency of private messages between random pairs of logged-in users:
 * first the sustained rate, the best of closed-loop runs ({@link ClosedLoopRun}) with each of the
 * windows asked for, then the latency at 25, 50 and 100 % of it ({@link PacedRun}), each after
 * two seconds of the same traffic that are not counted. Every row says how many messages were lost
 * and duplicated: a rate is only a sustained rate if both are 0.
 */
final class ThroughputPart {

    private static final double[] FRACTIONS = {0.25, 0.5, 1.0};
    /** Paced traffic at a run's rate before its latency is measured. */
    private static final Duration LEAD_IN = Duration.ofSeconds(2);
    /** Closed-loop traffic before a run with another window is counted. */
    private static final Duration SETTLE = Duration.ofSeconds(3);

    private ThroughputPart() {
    }

    static void run(List<LoadClient> clients, LoadOptions options, CpuMeter cpu, Report report)
            throws InterruptedException {
        Pairs pairs = new Pairs(clients);
        double sustained = options.rate() > 0 ? options.rate() : sustainedRate(pairs, options, cpu, report);
        if (sustained < 1) {
            report.note("part 1: no closed-loop run without loss, so no sustained rate and no latency runs");
            return;
        }
        if (options.rate() > 0) {
            // No search, but still the warm-up: a cold JIT would be measured instead of the server.
            new ClosedLoopRun(pairs).run(options.windows().get(0), options.warmup(), SETTLE, cpu);
            report.note(String.format(Locale.ROOT, "part 1: latency runs at fractions of --rate=%d, not of a "
                    + "measured rate (after %ss of closed-loop warm-up)", options.rate(),
                    options.warmup().toMillis() / 1000.0));
        }
        for (double fraction : FRACTIONS) {
            int percent = (int) Math.round(fraction * 100);
            // The same traffic, not counted, first: the switch from the previous run (its last
            // receipts, the garbage it left, code it did not use) is not this rate's latency.
            new PacedRun(pairs, "w" + percent, sustained * fraction, LEAD_IN).run(cpu);
            PacedRun.Result paced = new PacedRun(pairs, "p" + percent, sustained * fraction,
                    options.latencyDuration()).logTo(options.latencyLogFile("server-p" + percent, sustained * fraction))
                    .run(cpu);
            report.add(1, String.format(Locale.ROOT, "latency send→receipt at %d %% (%,.0f msg/s offered for %ss)",
                            percent, paced.rate(), options.latencyDuration().toMillis() / 1000.0),
                    paced.latency().toMillis() + "; of which the generator's lag before writing: "
                            + paced.senderLag().toMillis() + "; " + paced.cpu() + "; "
                            + accounting(paced.ledger(), paced.receipts())
                            + (paced.notOffered() > 0 ? "; pacer fell behind, " + paced.notOffered() + " not offered" : ""),
                    percent == 50 ? "p99 ≤ 5 ms" : "");
        }
    }

    /** Runs the closed loop with each window in turn; returns the best rate without loss, or 0. */
    private static double sustainedRate(Pairs pairs, LoadOptions options, CpuMeter cpu, Report report)
            throws InterruptedException {
        ClosedLoopRun.Result best = null;
        int bestWindow = 0;
        for (int window : options.windows()) {
            // The first run also warms up both JVMs; later ones only let the new window settle.
            Duration warmup = best == null ? options.warmup() : SETTLE;
            ClosedLoopRun.Result closed = new ClosedLoopRun(pairs).run(window, warmup, options.duration(), cpu);
            report.add(1, String.format(Locale.ROOT, "closed loop, %,d in flight between %,d users: counted over "
                            + "%ss after %ss warm-up", window, pairs.clients().size(),
                            options.duration().toMillis() / 1000.0, warmup.toMillis() / 1000.0),
                    String.format(Locale.ROOT, "%,.0f msg/s (%,d received); %s; %s", closed.perSecond(),
                            closed.counted(), closed.cpu(), accounting(closed.ledger(), closed.receipts())),
                    "");
            if (closed.ledger().lost() == 0 && closed.ledger().duplicates() == 0
                    && (best == null || closed.perSecond() > best.perSecond())) {
                best = closed;
                bestWindow = window;
            }
        }
        if (best == null) {
            return 0;
        }
        report.add(1, String.format(Locale.ROOT, "sustained private msgs/s: the best closed loop without loss "
                        + "(%,d in flight)", bestWindow),
                String.format(Locale.ROOT, "**%,.0f msg/s**", best.perSecond()), "≥ 100,000 msg/s, 0 lost");
        return best.perSecond();
    }

    /** "lost 0, duplicated 0, unknown 0; receipts: ...". */
    static String accounting(DeliveryLedger ledger, ReceiptCounts receipts) {
        return "lost " + ledger.lost() + ", duplicated " + ledger.duplicates()
                + (ledger.unknown() > 0 ? ", unknown tokens " + ledger.unknown() : "") + "; " + receipts;
    }
}
