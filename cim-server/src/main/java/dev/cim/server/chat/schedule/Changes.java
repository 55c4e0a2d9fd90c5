package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Edit;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.ScheduledChange;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.chat.session.Session;
import dev.cim.server.store.ScheduledStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a user asks of the messages they scheduled, from any terminal: list them, edit or move one,
 * cancel one. Each runs on the user's lane (in order with their other store work); a change is held
 * or let go on this node's wheel as its new due time says, answered, and told to the user's other
 * terminals.
 */
final class Changes {

    /** Scheduled messages per listing frame: 100 of up to 4,000 characters stay under 1 MB. */
    private static final int PER_FRAME = 100;

    private final ScheduledStore store;
    private final UserLanes lanes;
    private final ServerTimers timers;
    private final ScheduleNews news;

    Changes(ScheduledStore store, UserLanes lanes, ServerTimers timers, ScheduleNews news) {
        this.store = store;
        this.lanes = lanes;
        this.timers = timers;
        this.news = news;
    }

    void cancel(Session session, long id, String messageId) {
        onLane(session, id, () -> {
            Optional<Scheduled> cancelled = store.cancel(session.user(), messageId);
            if (cancelled.isEmpty()) {
                Reply.to(session, Reply.notFound(id, messageId));
                return;
            }
            timers.unhold(session.user(), cancelled.get().getId());
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
            List<Scheduled> chosen = dueBefore == 0 ? all
                    : all.stream().filter(m -> m.getDueAtMillis() < dueBefore).toList();
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
