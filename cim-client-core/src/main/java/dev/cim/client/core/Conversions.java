package dev.cim.client.core;

import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Group;
import dev.cim.common.protocol.proto.GroupNews;
import dev.cim.common.protocol.proto.LoginResult;
import dev.cim.common.protocol.proto.Receipt;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.SearchPage;
import dev.cim.common.protocol.proto.SentRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** From the wire to the library's values, in one place. */
final class Conversions {

    private Conversions() {
    }

    static ChatMessage message(Chat chat) {
        ChatMessage.Delay delay = null;
        if (chat.hasDelay()) {
            Chat.Delay d = chat.getDelay();
            delay = new ChatMessage.Delay(Duration.ofMillis(d.getRequestedMillis()), Instant.ofEpochMilli(d.getDueAtMillis()),
                    d.getFiredByServer(), d.getOccurrence(), d.getMissed(), d.getWhenOnline());
        }
        return new ChatMessage(chat.getId(), chat.getSender(), chat.getRecipient(), chat.getText(),
                Instant.ofEpochMilli(chat.getSentAtMillis()), delay);
    }

    static SendReceipt receipt(Receipt receipt) {
        SendReceipt.Outcome outcome = switch (receipt.getOutcome()) {
            case STORED -> SendReceipt.Outcome.STORED;
            case HANDLED_EARLIER -> SendReceipt.Outcome.HANDLED_EARLIER;
            case POSTED -> SendReceipt.Outcome.POSTED;
            default -> SendReceipt.Outcome.DELIVERED;
        };
        return new SendReceipt(receipt.getMessageId(), outcome, receipt.getSessions(),
                receipt.getStoredFor(), receipt.getResend());
    }

    static ScheduledMessage scheduled(Scheduled s) {
        Instant due = Instant.ofEpochMilli(s.getDueAtMillis());
        return new ScheduledMessage(s.getId(), s.getNumber(), new Recipient(s.getRecipient()), s.getText(), due,
                Duration.ofMillis(s.getRequestedMillis()), s.hasTiming() ? When.of(s.getTiming(), due) : When.at(due),
                s.getOccurrence(), zone(s.getRecipientZone()));
    }

    /** A record of a scheduled message done with. */
    static SentEntry sent(SentRecord record) {
        return new SentEntry(scheduled(record.getMessage()), kind(record.getOutcome()),
                Instant.ofEpochMilli(record.getAtMillis()), record.getReason());
    }

    static ScheduledChange.Kind kind(dev.cim.common.protocol.proto.ScheduledChange.Kind kind) {
        return switch (kind) {
            case EDITED -> ScheduledChange.Kind.EDITED;
            case CANCELLED -> ScheduledChange.Kind.CANCELLED;
            case SENT -> ScheduledChange.Kind.SENT;
            case FAILED -> ScheduledChange.Kind.FAILED;
            case DROPPED -> ScheduledChange.Kind.DROPPED;
            case SKIPPED -> ScheduledChange.Kind.SKIPPED;
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
                Duration.ofMillis(result.getMaxScheduleMillis()), List.copyOf(nodes), result.getMaxScheduled(),
                result.getMessagesPerSecond(), result.getMessageBurst(), zone(result.getSettings().getZone()));
    }

    /** A zone as the server names it; empty when none is set or this JVM does not know it. */
    static Optional<ZoneId> zone(String name) {
        if (name.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(ZoneId.of(name));
        } catch (java.time.DateTimeException unknown) {
            return Optional.empty();
        }
    }

    static GroupInfo group(Group group) {
        return new GroupInfo(group.getName(), group.getOwner(), group.getOpen(), group.getMemberCount(),
                Instant.ofEpochMilli(group.getCreatedMillis()));
    }

    static GroupChange groupChange(GroupNews news) {
        GroupChange.Kind kind = switch (news.getKind()) {
            case CREATED -> GroupChange.Kind.CREATED;
            case LEFT -> GroupChange.Kind.LEFT;
            case REMOVED -> GroupChange.Kind.REMOVED;
            default -> GroupChange.Kind.JOINED;
        };
        return new GroupChange(kind, group(news.getGroup()), news.getUsersList(), news.getBy());
    }

    static HistoryEntry entry(dev.cim.common.protocol.proto.HistoryEntry entry) {
        return new HistoryEntry(message(entry.getChat()), entry.getPosition());
    }

    static HistoryPage page(dev.cim.common.protocol.proto.HistoryPage page) {
        List<HistoryEntry> entries = new ArrayList<>(page.getEntriesCount());
        page.getEntriesList().forEach(e -> entries.add(entry(e)));
        return new HistoryPage(page.getConversation(), entries, page.getMore());
    }

    static SearchResult search(SearchPage page) {
        List<SearchResult.Hit> hits = new ArrayList<>(page.getHitsCount());
        page.getHitsList().forEach(hit -> hits.add(new SearchResult.Hit(hit.getConversation(), entry(hit.getEntry()))));
        return new SearchResult(hits, page.getResume(), Instant.ofEpochMilli(page.getSearchedBackToMillis()));
    }

    static CimException failure(ErrorReply error) {
        CimException.Reason reason = switch (error.getCode()) {
            case UNKNOWN_USER -> CimException.Reason.UNKNOWN_USER;
            case RATE_LIMITED -> CimException.Reason.RATE_LIMITED;
            case INBOX_FULL -> CimException.Reason.INBOX_FULL;
            case TOO_MANY_SCHEDULED -> CimException.Reason.TOO_MANY_SCHEDULED;
            case NOT_FOUND -> CimException.Reason.NOT_FOUND;
            case INTERNAL, SHUTTING_DOWN, TRY_AGAIN -> CimException.Reason.SERVER_ERROR;
            default -> CimException.Reason.BAD_REQUEST;
        };
        return new CimException(reason, error.getMessage(), Duration.ofMillis(error.getRetryAfterMillis()));
    }
}
