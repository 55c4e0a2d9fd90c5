package dev.cim.client.core;

import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.LoginResult;
import dev.cim.common.protocol.proto.Receipt;
import dev.cim.common.protocol.proto.Scheduled;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** From the wire to the library's values, in one place. */
final class Conversions {

    private Conversions() {
    }

    static ChatMessage message(Chat chat) {
        ChatMessage.Delay delay = null;
        if (chat.hasDelay()) {
            Chat.Delay d = chat.getDelay();
            delay = new ChatMessage.Delay(Duration.ofMillis(d.getRequestedMillis()), Instant.ofEpochMilli(d.getDueAtMillis()),
                    d.getFiredByServer());
        }
        return new ChatMessage(chat.getId(), chat.getSender(), chat.getRecipient(), chat.getText(),
                Instant.ofEpochMilli(chat.getSentAtMillis()), delay);
    }

    static SendReceipt receipt(Receipt receipt) {
        SendReceipt.Outcome outcome = switch (receipt.getOutcome()) {
            case STORED -> SendReceipt.Outcome.STORED;
            case HANDLED_EARLIER -> SendReceipt.Outcome.HANDLED_EARLIER;
            default -> SendReceipt.Outcome.DELIVERED;
        };
        return new SendReceipt(receipt.getMessageId(), outcome, receipt.getSessions(),
                receipt.getStoredFor(), receipt.getResend());
    }

    static ScheduledMessage scheduled(Scheduled s) {
        return new ScheduledMessage(s.getId(), s.getNumber(), new Recipient(s.getRecipient()), s.getText(),
                Instant.ofEpochMilli(s.getDueAtMillis()), Duration.ofMillis(s.getRequestedMillis()));
    }

    static ScheduledChange.Kind kind(dev.cim.common.protocol.proto.ScheduledChange.Kind kind) {
        return switch (kind) {
            case EDITED -> ScheduledChange.Kind.EDITED;
            case CANCELLED -> ScheduledChange.Kind.CANCELLED;
            case SENT -> ScheduledChange.Kind.SENT;
            case FAILED -> ScheduledChange.Kind.FAILED;
            default -> ScheduledChange.Kind.SCHEDULED;
        };
    }

    /** What a login result says, as the library tells it; a node address the client cannot use is left out. */
    static LoginInfo loginInfo(LoginResult result) {
        List<ServerAddress> nodes = new ArrayList<>();
        for (String node : result.getNodesList()) {
            try {
                nodes.add(ServerAddress.parse(node));
            } catch (IllegalArgumentException ignored) {
                // a node the client cannot use
            }
        }
        return new LoginInfo(result.getNodeId(), result.getAccountCreated(),
                Duration.ofMillis(result.getHeartbeatIntervalMillis()),
                result.getMaxTextLength() > 0 ? result.getMaxTextLength() : ChatRules.MAX_TEXT_LENGTH,
                Duration.ofMillis(result.getMaxScheduleMillis()), List.copyOf(nodes));
    }

    static CimException failure(ErrorReply error) {
        CimException.Reason reason = switch (error.getCode()) {
            case UNKNOWN_USER -> CimException.Reason.UNKNOWN_USER;
            case RATE_LIMITED -> CimException.Reason.RATE_LIMITED;
            case INBOX_FULL -> CimException.Reason.INBOX_FULL;
            case TOO_MANY_SCHEDULED -> CimException.Reason.TOO_MANY_SCHEDULED;
            case NOT_FOUND -> CimException.Reason.NOT_FOUND;
            case INTERNAL, SHUTTING_DOWN -> CimException.Reason.SERVER_ERROR;
            default -> CimException.Reason.BAD_REQUEST;
        };
        return new CimException(reason, error.getMessage(), Duration.ofMillis(error.getRetryAfterMillis()));
    }
}
