package dev.cim.server.chat.history;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.server.chat.platform.LaneBatches;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.chat.routing.Transcript;
import dev.cim.server.store.Conversation;
import dev.cim.server.store.ConversationLog;
import java.time.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each private message the router took to its recipient into its conversation's log, behind
 * the delivery: in batches per lane (one lane per conversation, so its messages keep their order),
 * a round trip for every message noted since the lane's last. The message's own delivery never waits
 * for it. A server that dies loses from the history only the messages of its last moment not yet
 * written (they were delivered, or are in the inbox, all the same). A group's messages are in the
 * group's log already and do not pass here.
 *
 * <p>What waits to be written is bounded ({@value #MAX_BACKLOG} messages): a store that cannot keep
 * up (Redis slower than the traffic, or not answering) makes the history miss messages, counted and
 * logged, rather than the server's memory grow without end.
 */
final class HistoryWriter implements Transcript {

    private static final Logger log = LoggerFactory.getLogger(HistoryWriter.class);

    /** Messages noted and not yet written, at most. */
    static final int MAX_BACKLOG = 200_000;

    private final ConversationLog logs;
    private final Clock clock;
    private final HistorySettings settings;
    private final LaneBatches<Chat> batches;
    private final AtomicInteger backlog = new AtomicInteger();
    private final Counter dropped;

    HistoryWriter(ConversationLog logs, UserLanes lanes, Clock clock, HistorySettings settings, MeterRegistry meters) {
        this.logs = logs;
        this.clock = clock;
        this.settings = settings;
        this.batches = new LaneBatches<>(lanes, this::write);
        this.dropped = Counter.builder("cim.history.dropped")
                .description("private messages left out of their conversation's history: its writes fell too far behind")
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
            log.warn("Could not write {} messages to their conversations' history: {}", chats.size(), e.toString());
        } finally {
            backlog.addAndGet(-chats.size()); // held until written: they count while they wait on the store
        }
    }
}
