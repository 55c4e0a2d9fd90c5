package dev.cim.loadgen;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Part 1, throughput and latency of private messages between random pairs of logged-in users:
 * first the sustained rate ({@link ClosedLoopRun}), then the latency at 25, 50 and 100 % of it
 * ({@link PacedRun}). Every row says how many messages were lost and duplicated: a rate is only a
 * sustained rate if both are 0.
 */
final class ThroughputPart {

    private static final double[] FRACTIONS = {0.25, 0.5, 1.0};

    private ThroughputPart() {
    }

    static void run(List<LoadClient> clients, LoadOptions options, Report report) throws InterruptedException {
        Pairs pairs = new Pairs(clients);
        Duration warmup = min(Duration.ofSeconds(5), options.duration().dividedBy(5));
        ClosedLoopRun.Result closed = new ClosedLoopRun(pairs).run(options.window(), warmup, options.duration());
        report.add(1, String.format(Locale.ROOT, "sustained private msgs/s: closed loop, %,d in flight, %,d users, "
                        + "counted over %ss after %ss warm-up", options.window(), clients.size(),
                        options.duration().toMillis() / 1000.0, warmup.toMillis() / 1000.0),
                String.format(Locale.ROOT, "**%,.0f msg/s** (%,d received); %s", closed.perSecond(), closed.counted(),
                        accounting(closed.ledger(), closed.receipts())),
                "≥ 100,000 msg/s, 0 lost");
        if (closed.perSecond() < 1) {
            report.note("part 1: no sustained rate, so no latency runs");
            return;
        }
        for (double fraction : FRACTIONS) {
            int percent = (int) Math.round(fraction * 100);
            PacedRun.Result paced = new PacedRun(pairs, "p" + percent).run(closed.perSecond() * fraction,
                    options.latencyDuration());
            report.add(1, String.format(Locale.ROOT, "latency send→receipt at %d %% (%,.0f msg/s offered for %ss)",
                            percent, paced.rate(), options.latencyDuration().toMillis() / 1000.0),
                    paced.latency().toMillis() + "; " + accounting(paced.ledger(), paced.receipts())
                            + (paced.notOffered() > 0 ? "; pacer fell behind, " + paced.notOffered() + " not offered" : ""),
                    percent == 50 ? "p99 ≤ 5 ms" : "");
        }
    }

    /** "lost 0, duplicated 0, unknown 0; receipts: ...". */
    static String accounting(DeliveryLedger ledger, ReceiptCounts receipts) {
        return "lost " + ledger.lost() + ", duplicated " + ledger.duplicates()
                + (ledger.unknown() > 0 ? ", unknown tokens " + ledger.unknown() : "") + "; " + receipts;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
