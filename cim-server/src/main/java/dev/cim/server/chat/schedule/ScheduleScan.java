package dev.cim.server.chat.schedule;

import dev.cim.common.Failures;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.server.store.ScheduledStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the store for the scheduled messages coming into this node's window, and holds them. Each
 * scan frees expired claims and reads what came into the window since the last scan (the first, all
 * up to the window's end). A message already in the window when it was registered or moved is held
 * by the node that did so; should that node die before sending it, it is overdue here once a lease
 * has passed, and the scan holds it too. Driven by a {@code Periodic} thread of its own; one scan
 * at a time.
 */
final class ScheduleScan {

    private static final Logger log = LoggerFactory.getLogger(ScheduleScan.class);
    /** Messages read per bucket and scan, at most. */
    private static final int SCAN_LIMIT = 100_000;

    private final ScheduledStore store;
    private final Clock clock;
    private final ScheduleSettings settings;
    private final BiConsumer<String, List<Scheduled>> hold;
    /** Where the last scan read up to: later scans read from there (confined to the scanning thread). */
    private long scannedUntil = Long.MIN_VALUE;
    /**
     * Set when a claim failed (Redis unreachable, a script error): the message is no longer held and
     * lies before {@link #scannedUntil}, so the next scan reads the whole window again.
     */
    private final AtomicBoolean rescan = new AtomicBoolean();
    private volatile long stored;

    /**
     * @param hold told of the messages read, each user's together (in the order read), with the user
     */
    ScheduleScan(ScheduledStore store, Clock clock, ScheduleSettings settings,
            BiConsumer<String, List<Scheduled>> hold) {
        this.store = store;
        this.clock = clock;
        this.settings = settings;
        this.hold = hold;
    }

    /** One scan. */
    void scan() {
        long now = clock.millis();
        long until = now + settings.window().toMillis();
        long after = rescan.getAndSet(false) ? Long.MIN_VALUE : scannedUntil;
        long overdue = now - settings.lease().toMillis();
        // What a lease has passed over is read again: among it, the messages of claims freed by this scan.
        long overdueUntil = after == Long.MIN_VALUE ? Long.MIN_VALUE : Math.min(overdue, after);
        ScheduledStore.Scan scan;
        try {
            // One round trip for all buckets: a scan read bucket by bucket (three round trips each,
            // 768 by default, and 256 more to count) took the cores from the chat traffic in bursts
            // every scan interval.
            scan = store.scanAll(now, after, until, overdueUntil, SCAN_LIMIT);
        } catch (RuntimeException e) {
            log.warn("Could not scan the scheduled messages: {}", Failures.rootMessage(e));
            if (after == Long.MIN_VALUE) {
                rescan.set(true);
            }
            return; // the next scan reads from the same point
        }
        if (scan.freed() > 0) {
            log.warn("{} scheduled messages claimed by a node that did not send them are claimable again", scan.freed());
        }
        Map<String, List<Scheduled>> byUser = new LinkedHashMap<>();
        for (ScheduledStore.Entry entry : scan.entries()) {
            byUser.computeIfAbsent(entry.user(), u -> new ArrayList<>()).add(entry.message());
        }
        byUser.forEach(hold);
        scannedUntil = Math.max(after, until);
        stored = scan.stored();
    }

    /**
     * A claim failed: its message is no longer held here, and lies before where the scans read
     * from; the next scan reads the whole window again.
     */
    void rescan() {
        rescan.set(true);
    }

    /** Scheduled messages in the store, all users, as of the last scan. */
    long stored() {
        return stored;
    }
}
