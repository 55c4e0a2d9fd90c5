package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Edit;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.ScheduledChange;
import dev.cim.common.protocol.proto.SentList;
import dev.cim.common.protocol.proto.SentRecord;
import dev.cim.server.chat.platform.Platform;
import dev.cim.server.chat.platform.Recipients;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.chat.session.Session;
import dev.cim.server.store.ScheduledStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a user asks of the messages they scheduled, from any terminal: list them, edit or move one,
 * cancel one. Each runs on the user's lane (in order with their other store work); a change is held
 * or let go on this node's wheel as its new due time says, answered, and told to the user's other
 * terminals.
 */
final class Changes {

    /** Scheduled messages per listing frame: 100 of up to 4,000 characters stay under 1 MB. */
    private static final int PER_FRAME = 100;

    /** Records per answer when the request names no number, and at most. */
    static final int RECORDS = 20;
    static final int MAX_RECORDS = 200;

    private final ScheduledStore store;
    private final UserLanes lanes;
    private final ServerTimers timers;
    private final ScheduleNews news;
    private final Recipients recipients;
    private final Clock clock;
    private final ScheduleSettings settings;

    Changes(ScheduledStore store, Platform platform, ServerTimers timers, ScheduleNews news, Recipients recipients,
            ScheduleSettings settings) {
        this.store = store;
        this.lanes = platform.lanes();
        this.clock = platform.clock();
        this.timers = timers;
        this.news = news;
        this.recipients = recipients;
        this.settings = settings;
    }

    /**
     * Skips the next occurrence of recurring message {@code messageId}: the series moves on to the
     * one after (or ends, when that was its last: then it is no longer scheduled).
     */
    void skip(Session session, long id, String messageId) {
        onLane(session, id, () -> {
            boolean[] notRecurring = {false};
            boolean[] ended = {false};
            Optional<Scheduled> skipped = store.update(session.user(), messageId, current -> {
                if (!Occurrences.recurring(current)) {
                    notRecurring[0] = true;
                    return current;
                }
                Optional<Scheduled> next = Occurrences.after(current);
                ended[0] = next.isEmpty();
                return next.orElse(current);
            });
            if (skipped.isEmpty()) {
                Reply.to(session, Reply.notFound(id, messageId));
            } else if (notRecurring[0]) {
                Reply.to(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "not skipped: " + messageId
                        + " is not a recurring message (expected: one scheduled with :every; :cancel cancels this one)",
                        false));
            } else if (ended[0]) {
                Optional<Scheduled> cancelled = store.cancel(session.user(), messageId);
                timers.unhold(session.user(), messageId);
                news.changed(session, id, ScheduledChange.Kind.SKIPPED, cancelled.orElse(skipped.get()), null);
            } else {
                timers.hold(session.user(), skipped.get());
                news.changed(session, id, ScheduledChange.Kind.SKIPPED, skipped.get(), skipped.get());
            }
        });
    }

    /** Answers with the newest {@code limit} (0: {@value #RECORDS}) records of the user's messages done with. */
    void sent(Session session, long id, int limit) {
        int count = limit <= 0 ? RECORDS : Math.min(limit, MAX_RECORDS);
        onLane(session, id, () -> {
            long notBefore = clock.millis() - settings.record().age().toMillis();
            List<SentRecord> records = store.records(session.user(), count, notBefore);
            Reply.to(session, Envelopes.builder(id).setSentList(SentList.newBuilder().addAllRecords(records)).build());
        });
    }

    void cancel(Session session, long id, String messageId) {
        onLane(session, id, () -> {
            Optional<Scheduled> cancelled = store.cancel(session.user(), messageId);
            if (cancelled.isEmpty()) {
                Reply.to(session, Reply.notFound(id, messageId));
                return;
            }
            timers.unhold(session.user(), cancelled.get().getId());
            if (OnlineWaits.whenOnline(cancelled.get())) {
                store.unwait(cancelled.get().getRecipient(),
                        List.of(new ScheduledStore.Ref(session.user(), cancelled.get().getId())));
            }
            news.changed(session, id, ScheduledChange.Kind.CANCELLED, cancelled.get());
        });
    }

    /** Applies {@code edit}, checked already. */
    void edit(Session session, long id, Edit edit) {
        onLane(session, id, () -> {
            Optional<Scheduled> edited = store.edit(session.user(), edit.getId(), edit.getText(), edit.getDueAtMillis(),
                    edit.getRequestedMillis());
            if (edited.isEmpty()) {
                Reply.to(session, Reply.notFound(id, edit.getId()));
                return;
            }
            timers.hold(session.user(), edited.get());
            news.changed(session, id, ScheduledChange.Kind.EDITED, edited.get());
        });
    }

    /** Lists the user's messages due before {@code dueBefore} (0: all), in frames of {@value #PER_FRAME}. */
    void list(Session session, long id, long dueBefore) {
        onLane(session, id, () -> {
            List<Scheduled> all = store.list(session.user());
            List<Scheduled> chosen = withRecipientZones(dueBefore == 0 ? all
                    : all.stream().filter(m -> m.getDueAtMillis() < dueBefore).toList());
            int total = chosen.size();
            List<Envelope> frames = new ArrayList<>();
            if (total == 0) {
                frames.add(Envelopes.scheduledList(id, List.of(), false, 0));
            }
            for (int from = 0; from < total; from += PER_FRAME) {
                int to = Math.min(total, from + PER_FRAME);
                frames.add(Envelopes.scheduledList(id, chosen.subList(from, to), to < total, total));
            }
            session.connection().owner().execute(() -> {
                if (session.connection().isOpen()) {
                    frames.forEach(session.connection()::write);
                    session.connection().flush();
                }
            });
        });
    }

    /** {@code messages} with the zones their recipients set, where one did: the list shows both times. */
    private List<Scheduled> withRecipientZones(List<Scheduled> messages) {
        Set<String> users = new HashSet<>();
        for (Scheduled m : messages) {
            if (!ChatRules.isGroup(m.getRecipient()) && !ChatRules.EVERYONE.equals(m.getRecipient())) {
                users.add(m.getRecipient());
            }
        }
        Map<String, String> zones = recipients.zones(users);
        if (zones.isEmpty()) {
            return messages;
        }
        List<Scheduled> shown = new ArrayList<>(messages.size());
        for (Scheduled m : messages) {
            String zone = zones.get(m.getRecipient());
            shown.add(zone == null ? m : m.toBuilder().setRecipientZone(zone).build());
        }
        return shown;
    }

    /** Runs store work for {@code session}'s user on their lane; a failure answers request {@code id}. */
    private void onLane(Session session, long id, Runnable work) {
        lanes.of(session.user()).execute(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                Reply.failed(session, id, e);
            }
        });
    }
}
