package dev.cim.server.chat.history;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.server.chat.platform.LaneBatches;
import dev.cim.server.chat.platform.Platform;
import dev.cim.server.chat.routing.Transcript;
import dev.cim.server.store.Conversation;
import dev.cim.server.store.ConversationLog;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each private message the router took to its recipient into its conversation's log, behind
 * the delivery: in batches per lane (one lane per conversation, so its messages keep their order),
 * each gathering for {@link #LINGER} after its first message, a round trip for all. The message's
 * own delivery never waits for it. A server that dies loses from the history only the messages of
 * its last moment not yet written (they were delivered, or are in the inbox, all the same). A
 * group's messages are in the group's log already and do not pass here.
 *
 * <p>Why linger: without it, at a few thousand messages a second each message was a batch of its
 * own, two script calls and a wake-up of its lane. Paced at 2,000 and 4,000 msg/s
 * ({@code cim-loadgen --parts=1 --rate=4000}), the server with its Redis spent 207.0-240.0 and
 * 157.3-159.7 µs of CPU per message; lingering, 130.0-137.7 and 91.8-104.2 µs; with no history,
 * 97.7 and 73.2 µs. A message is in its history a tenth of a second after it was routed, or so.
 *
 * <p>What waits to be written is bounded ({@value #MAX_BACKLOG} messages): a store that cannot keep
 * up (Redis slower than the traffic, or not answering) makes the history miss messages, counted and
 * logged, rather than the server's memory grow without end. A write that fails (Redis full or down)
 * is counted too, and logged at most once every {@value #FAILURE_LOG_MILLIS} ms with how many
 * failed meanwhile: a full Redis fails every batch, and a line per batch would cost the server more
 * than its traffic (tens of thousands of lines a minute at 100,000 messages a second).
 */
final class HistoryWriter implements Transcript {

    private static final Logger log = LoggerFactory.getLogger(HistoryWriter.class);

    /** Messages noted and not yet written, at most. */
    static final int MAX_BACKLOG = 200_000;
    /** The least time between two lines about failed writes. */
    static final long FAILURE_LOG_MILLIS = 10_000;
    /** How long a lane's batch gathers after its first message. */
    static final Duration LINGER = Duration.ofMillis(100);

    private final ConversationLog logs;
    private final Clock clock;
    private final HistorySettings settings;
    private final LaneBatches<Chat> batches;
    private final AtomicInteger backlog = new AtomicInteger();
    private final Counter dropped;
    private final Counter failed;
    /** When the last line about failed writes was logged (epoch ms), and the failures since. */
    private final AtomicLong failureLoggedAt = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong failedSinceLogged = new AtomicLong();

    HistoryWriter(ConversationLog logs, Platform platform, HistorySettings settings) {
        this.logs = logs;
        this.clock = platform.clock();
        this.settings = settings;
        this.batches = new LaneBatches<>(platform.lanes(), this::write, platform.wheel(), LINGER);
        var meters = platform.meters();
        this.dropped = Counter.builder("cim.history.dropped")
                .description("private messages left out of their conversation's history: its writes fell too far behind")
                .register(meters);
        this.failed = Counter.builder("cim.history.failed")
                .description("private messages left out of their conversation's history: the store refused their write")
                .register(meters);
        Gauge.builder("cim.history.backlog", backlog, AtomicInteger::get)
                .description("private messages noted for the history and not yet written").register(meters);
    }

    @Override
    public void record(Chat chat) {
        Conversation conversation = Conversation.of(chat);
        if (conversation == null || conversation.isGroup()) {
            return;
        }
        if (backlog.incrementAndGet() > MAX_BACKLOG) {
            backlog.decrementAndGet();
            if (dropped.count() == 0 || (long) dropped.count() % 10_000 == 0) {
                log.warn("The history is {} messages behind: leaving messages out of it ({} so far)", MAX_BACKLOG,
                        (long) dropped.count() + 1);
            }
            dropped.increment();
            return;
        }
        batches.add(conversation.id(), chat);
    }

    private void write(List<Chat> chats) {
        try {
            logs.append(chats, clock.millis(), settings.retention(), settings.maxMessages());
        } catch (RuntimeException e) {
            failed(chats.size(), e);
        } finally {
            backlog.addAndGet(-chats.size()); // held until written: they count while they wait on the store
        }
    }

    private void failed(int messages, RuntimeException e) {
        failed.increment(messages);
        long since = failedSinceLogged.addAndGet(messages);
        long now = clock.millis();
        long last = failureLoggedAt.get();
        if ((last == Long.MIN_VALUE || now - last >= FAILURE_LOG_MILLIS) && failureLoggedAt.compareAndSet(last, now)) {
            failedSinceLogged.addAndGet(-since);
            log.warn("Could not write {} messages to their conversations' history{}: {}", since,
                    last == Long.MIN_VALUE ? "" : " in the last " + (now - last) / 1000 + " s", e.toString());
        }
    }
}
