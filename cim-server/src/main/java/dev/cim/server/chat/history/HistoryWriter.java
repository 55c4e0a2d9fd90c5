package dev.cim.server.chat.history;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.server.chat.platform.LaneBatches;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.chat.routing.Transcript;
import dev.cim.server.store.Conversation;
import dev.cim.server.store.ConversationLog;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each private message the router took to its recipient into its conversation's log, behind
 * the delivery: in batches per lane (one lane per conversation, so its messages keep their order),
 * a round trip for every message noted since the lane's last. The message's own delivery never waits
 * for it. A server that dies loses from the history only the messages of its last moment not yet
 * written (they were delivered, or are in the inbox, all the same). A group's messages are in the
 * group's log already and do not pass here.
 */
final class HistoryWriter implements Transcript {

    private static final Logger log = LoggerFactory.getLogger(HistoryWriter.class);

    private final ConversationLog logs;
    private final Clock clock;
    private final HistorySettings settings;
    private final LaneBatches<Chat> batches;

    HistoryWriter(ConversationLog logs, UserLanes lanes, Clock clock, HistorySettings settings) {
        this.logs = logs;
        this.clock = clock;
        this.settings = settings;
        this.batches = new LaneBatches<>(lanes, this::write);
    }

    @Override
    public void record(Chat chat) {
        Conversation conversation = Conversation.of(chat);
        if (conversation != null && !conversation.isGroup()) {
            batches.add(conversation.id(), chat);
        }
    }

    private void write(List<Chat> chats) {
        try {
            logs.append(chats, clock.millis(), settings.retention(), settings.maxMessages());
        } catch (RuntimeException e) {
            log.warn("Could not write {} messages to their conversations' history: {}", chats.size(), e.toString());
        }
    }
}
