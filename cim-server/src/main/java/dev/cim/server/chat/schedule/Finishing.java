package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.ScheduledChange;
import dev.cim.common.protocol.proto.SentRecord;
import dev.cim.server.chat.platform.LaneBatches;
import dev.cim.server.chat.platform.Platform;
import dev.cim.server.chat.session.Replies;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.Tracker;
import dev.cim.server.store.ScheduledStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What became of a scheduled message whose time came: sent, failed, or dropped by its own late
 * policy. In batches per lane (one round trip for every message finished since the lane's last),
 * the store forgets it, or moves a recurring one to its next occurrence, and adds it to the user's
 * record ({@code :sent}); then the user's terminals are told. A message that failed on the
 * server's side (the store did not answer) is neither finished nor told: its claim runs out and a
 * later scan sends it again.
 */
final class Finishing {

    private static final Logger log = LoggerFactory.getLogger(Finishing.class);

    /**
     * A scheduled message whose time came.
     *
     * @param claimed    the message as claimed (its due time is the store's)
     * @param occurrence what was sent or dropped: the claimed message, or for a recurring one whose
     *                   earlier occurrences were missed, its latest occurrence due
     * @param failure    why it could not be sent, or null
     * @param note       for a dropped message, why; for a sent one, a note for the sender or ""
     * @param dropped    true when it was not sent by its own rule (late policy, a deadline)
     * @param releasedBy the session whose client asked to send it (answered as request
     *                   {@code requestId}), or null
     */
    record Outcome(String user, Scheduled claimed, Scheduled occurrence, Tracker.Failure failure, String note,
            boolean dropped, Session releasedBy, long requestId) {

        static Outcome sent(String user, Scheduled claimed, Scheduled occurrence, Tracker.Failure failure, String note,
                Session releasedBy, long requestId) {
            return new Outcome(user, claimed, occurrence, failure, note, false, releasedBy, requestId);
        }

        static Outcome dropped(String user, Scheduled claimed, Scheduled occurrence, String reason, Session releasedBy,
                long requestId) {
            return new Outcome(user, claimed, occurrence, null, reason, true, releasedBy, requestId);
        }

        ScheduledChange.Kind kind() {
            return dropped ? ScheduledChange.Kind.DROPPED
                    : failure != null ? ScheduledChange.Kind.FAILED : ScheduledChange.Kind.SENT;
        }

        String reason() {
            return failure != null ? failure.reason() : note;
        }
    }

    private final ScheduledStore store;
    private final ScheduleNews news;
    private final ServerTimers timers;
    private final Clock clock;
    private final ScheduleSettings settings;
    private final LaneBatches<Outcome> batches;

    /** @param timers where a series' next occurrence is held, when due within the window */
    Finishing(ScheduledStore store, Platform platform, ScheduleNews news, ServerTimers timers,
            ScheduleSettings settings) {
        this.store = store;
        this.news = news;
        this.timers = timers;
        this.clock = platform.clock();
        this.settings = settings;
        this.batches = new LaneBatches<>(platform.lanes(), this::finishAll);
    }

    /** Any thread. */
    void add(Outcome outcome) {
        batches.add(outcome.user(), outcome);
    }

    /** On a lane: finishes a batch in one round trip, then tells their users' terminals. */
    private void finishAll(List<Outcome> batch) {
        Replies replies = new Replies();
        List<ScheduledStore.Finish> finishes = new ArrayList<>(batch.size());
        List<Outcome> settled = new ArrayList<>(batch.size());
        List<Scheduled> nexts = new ArrayList<>(batch.size());
        long now = clock.millis();
        for (Outcome f : batch) {
            if (f.failure() != null && (f.failure().code() == ErrorReply.Code.INTERNAL || f.failure().retryable())) {
                log.warn("Scheduled message {} of {} could not be sent ({}); it is tried again once its claim of {} "
                        + "runs out", f.claimed().getId(), f.user(), f.failure().reason(), settings.lease());
                if (f.releasedBy() != null) {
                    // The client that asked only needs its answer: the server sends it later.
                    replies.add(f.releasedBy(), Envelopes.error(f.requestId(), ErrorReply.Code.INTERNAL,
                            "not sent yet: " + f.failure().reason() + "; the server sends it later", false));
                }
                continue;
            }
            Scheduled next = Occurrences.after(f.occurrence()).orElse(null);
            SentRecord record = SentRecord.newBuilder().setMessage(f.occurrence()).setOutcome(f.kind())
                    .setAtMillis(now).setReason(f.reason()).build();
            settled.add(f);
            nexts.add(next);
            finishes.add(new ScheduledStore.Finish(new ScheduledStore.Ref(f.user(), f.claimed().getId()),
                    f.claimed().getDueAtMillis(), next, record));
        }
        if (!finishes.isEmpty()) {
            List<ScheduledStore.Finished> finished;
            try {
                finished = store.finishAll(finishes, settings.record()); // what failed is sent again later
            } catch (RuntimeException e) {
                log.warn("Could not finish {} scheduled messages: {}", finishes.size(), e.toString());
                finished = Collections.nCopies(finishes.size(), ScheduledStore.Finished.FAILED);
            }
            for (int i = 0; i < finished.size(); i++) {
                if (finished.get(i) == ScheduledStore.Finished.GONE) {
                    nexts.set(i, null); // cancelled while it was sent: the series ends here
                }
            }
            forgetNotes(settled);
        }
        for (int i = 0; i < settled.size(); i++) {
            if (nexts.get(i) != null) {
                timers.hold(settled.get(i).user(), nexts.get(i));
            }
            tell(replies, settled.get(i), nexts.get(i));
        }
        replies.send();
    }

    /** Forgets the notes of the "when online" messages done with (see {@link OnlineWaits}). */
    private void forgetNotes(List<Outcome> settled) {
        for (Outcome f : settled) {
            if (OnlineWaits.whenOnline(f.claimed())) {
                try {
                    store.unwait(f.claimed().getRecipient(),
                            List.of(new ScheduledStore.Ref(f.user(), f.claimed().getId())));
                } catch (RuntimeException e) {
                    log.warn("Could not forget that {} waits for {}: {}", f.claimed().getId(),
                            f.claimed().getRecipient(), e.toString());
                }
            }
        }
    }

    /** Tells the user's terminals: the one that released it as the answer to its request, the others as news. */
    private void tell(Replies replies, Outcome f, Scheduled next) {
        ScheduledChange.Builder change = ScheduledChange.newBuilder().setKind(f.kind()).setMessage(f.occurrence())
                .setReason(f.reason());
        if (next != null) {
            change.setNext(next);
        }
        if (f.failure() != null) {
            log.warn("Scheduled message {} of {} could not be sent: {}", f.claimed().getId(), f.user(),
                    f.failure().reason());
        }
        ScheduledChange told = change.build();
        if (f.releasedBy() != null) {
            replies.add(f.releasedBy(), Envelopes.scheduledChange(f.requestId(), told));
        }
        news.tell(replies, f.user(), f.releasedBy(), () -> told);
    }
}
