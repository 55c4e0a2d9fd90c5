package dev.cim.client.core;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Receipt;
import dev.cim.common.protocol.proto.Scheduled;
import java.time.Duration;
import java.time.Instant;

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
