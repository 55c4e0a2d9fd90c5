package dev.cim.client.core;

import dev.cim.common.protocol.proto.AccountSettings;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.GroupReply;
import dev.cim.common.protocol.proto.Receipts;
import dev.cim.common.protocol.proto.Scheduled;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the server sends, taken where it belongs: deliveries to {@link Inbound}, answers to the
 * requests they answer (a listing or a user list gathered over its frames first), news about the
 * user's scheduled messages to the jobs and the listener. Confined to the client's I/O thread.
 */
final class ServerFrames {

    private static final Logger log = LoggerFactory.getLogger(ServerFrames.class);

    /** Where a request the server refused for now goes, to be written again after the wait it gave. */
    interface Retries {
        void again(Pending pending, long afterMillis);
    }

    private final Requests requests;
    private final Retries retries;
    private final Inbound inbound;
    private final ScheduleSync schedule;
    private final CimListener news;
    /** What the ids of this client's messages begin with. */
    private final String idPrefix;

    /**
     * @param news told of what no request of the program asked for: a change to a scheduled message
     *             (made by another terminal, or sent by the server), to one of the user's groups, to
     *             the account's settings; it must not throw
     */
    ServerFrames(Requests requests, Retries retries, Inbound inbound, ScheduleSync schedule, CimListener news,
            String idPrefix) {
        this.requests = requests;
        this.retries = retries;
        this.inbound = inbound;
        this.schedule = schedule;
        this.news = news;
        this.idPrefix = idPrefix;
    }

    void frame(Envelope envelope) {
        long id = envelope.getRequestId();
        switch (envelope.getKindCase()) {
            case DELIVERY -> inbound.delivered(envelope.getDelivery().getChat());
            case RECEIPT -> answer(id, Conversions.receipt(envelope.getReceipt()));
            case RECEIPTS -> {
                Receipts receipts = envelope.getReceipts();
                for (int i = 0; i < receipts.getRequestIdsCount(); i++) {
                    long request = receipts.getRequestIds(i);
                    int sessions = i < receipts.getSessionsCount() ? receipts.getSessions(i) : 0;
                    answer(request, new SendReceipt(idPrefix + request, SendReceipt.Outcome.DELIVERED, sessions, "", false));
                }
            }
            case SCHEDULED_CHANGE -> scheduledChange(id, envelope.getScheduledChange());
            case SCHEDULED_LIST -> part(id, envelope.getScheduledList().getMessagesList().stream()
                    .map(Conversions::scheduled).toList(), envelope.getScheduledList().getMore());
            case ONLINE_USERS_REPLY -> part(id, envelope.getOnlineUsersReply().getUserNamesList(),
                    envelope.getOnlineUsersReply().getMore());
            case GROUP_REPLY -> groupReply(id, envelope.getGroupReply());
            case GROUP_NEWS -> news.onGroupChange(Conversions.groupChange(envelope.getGroupNews()));
            case SETTINGS -> settings(id, envelope.getSettings());
            case SENT_LIST -> answer(id, envelope.getSentList().getRecordsList().stream().map(Conversions::sent)
                    .toList());
            case HISTORY_PAGE -> answer(id, Conversions.page(envelope.getHistoryPage()));
            case SEARCH_PAGE -> answer(id, Conversions.search(envelope.getSearchPage()));
            case ERROR -> error(id, envelope.getError());
            case PONG -> { }
            default -> log.debug("Ignoring a {} from the server", envelope.getKindCase());
        }
    }

    /** One frame of a multi-frame answer to request {@code id}: answered with all of them once none follows. */
    private void part(long id, List<?> items, boolean more) {
        Pending pending = requests.get(id);
        if (pending != null) {
            pending.addParts(items);
            if (!more) {
                answer(id, List.copyOf(pending.parts()));
            }
        }
    }

    /** A group's answer: what the request's kind asks for (a members list may come in several frames). */
    private void groupReply(long id, GroupReply reply) {
        Pending pending = requests.get(id);
        if (pending == null) {
            return;
        }
        switch (pending.kind) {
            case GROUP_LIST -> answer(id, reply.getGroupsList().stream().map(Conversions::group).toList());
            case GROUP_MEMBERS -> part(id, reply.getGroupsCount() == 0 ? List.of() : reply.getGroups(0).getMembersList(),
                    reply.getMore());
            default -> answer(id, new GroupResult(reply.getGroupsCount() == 0
                    ? new GroupInfo("", "", false, 0, java.time.Instant.EPOCH) : Conversions.group(reply.getGroups(0)),
                    reply.getRefusedList()));
        }
    }

    private void scheduledChange(long id, dev.cim.common.protocol.proto.ScheduledChange change) {
        Scheduled message = change.getMessage();
        ScheduledMessage scheduled = Conversions.scheduled(message);
        ScheduledChange.Kind kind = Conversions.kind(change.getKind());
        Optional<ScheduledMessage> next = change.hasNext() ? Optional.of(Conversions.scheduled(change.getNext()))
                : Optional.empty();
        schedule.changed(kind, scheduled, next);
        Pending pending = id == 0 ? null : requests.get(id);
        if (pending == null || pending.internal) {
            news.onScheduledChange(new ScheduledChange(kind, scheduled, change.getReason(), next));
        }
        if (pending != null) {
            answer(id, scheduled);
        }
    }

    /** The answer to {@link Pending.Kind#SETTINGS}, or news of a change made on another terminal. */
    private void settings(long id, AccountSettings settings) {
        Optional<ZoneId> zone = Conversions.zone(settings.getZone());
        if (zone.isEmpty()) {
            return;
        }
        if (id != 0 && requests.get(id) != null) {
            answer(id, zone.get());
        } else {
            news.onZoneChanged(zone.get());
        }
    }

    private void error(long id, ErrorReply error) {
        if (error.getCode() == ErrorReply.Code.TRY_AGAIN && id != 0) {
            Pending again = requests.get(id);
            if (again != null) {
                // The server's storage could not take it now (failing over): the same request, same
                // number and message id, goes again; the receipt completes it then.
                log.debug("Request {} goes again in {} ms: {}", id, error.getRetryAfterMillis(), error.getMessage());
                retries.again(again, error.getRetryAfterMillis());
                return;
            }
        }
        Pending pending = id == 0 ? null : requests.remove(id);
        if (pending != null) {
            pending.result.completeExceptionally(Conversions.failure(error));
        } else {
            log.info("The server said: {} ({})", error.getMessage(), error.getCode());
        }
    }

    private void answer(long id, Object value) {
        Pending pending = requests.remove(id);
        if (pending != null) {
            pending.result.complete(value);
        }
    }
}
