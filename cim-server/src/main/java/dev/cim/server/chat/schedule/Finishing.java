package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.ScheduledChange;
import dev.cim.server.chat.platform.LaneBatches;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.chat.session.Replies;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.Tracker;
import dev.cim.server.store.ScheduledStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What became of a sent scheduled message: forgotten by the store in batches per lane (one round
 * trip for every message finished since the lane's last), then told to the user's terminals, as
 * sent or as failed with the reason. A message that failed on the server's side (the store did not
 * answer) is neither forgotten nor told: its claim runs out and a later scan sends it again.
 */
final class Finishing {

    private static final Logger log = LoggerFactory.getLogger(Finishing.class);

    /**
     * A message routed (or refused: {@code failure}).
     *
     * @param releasedBy the session whose client asked to send it (answered as request {@code requestId}), or null
     */
    record Outcome(String user, Scheduled message, Tracker.Failure failure, Session releasedBy, long requestId) {
    }

    private final ScheduledStore store;
    private final ScheduleNews news;
    private final Duration lease;
    private final LaneBatches<Outcome> batches;

    Finishing(ScheduledStore store, UserLanes lanes, ScheduleNews news, Duration lease) {
        this.store = store;
        this.news = news;
        this.lease = lease;
        this.batches = new LaneBatches<>(lanes, this::finishAll);
    }

    /** Any thread. */
    void add(Outcome outcome) {
        batches.add(outcome.user(), outcome);
    }

    /** On a lane: forgets a batch of sent messages in one round trip, then tells their users' terminals. */
    private void finishAll(List<Outcome> batch) {
        Replies replies = new Replies();
        List<ScheduledStore.Ref> refs = new ArrayList<>(batch.size());
        List<Outcome> settled = new ArrayList<>(batch.size());
        for (Outcome f : batch) {
            if (f.failure() != null && f.failure().code() == ErrorReply.Code.INTERNAL) {
                log.warn("Scheduled message {} of {} could not be sent ({}); it is tried again once its claim of {} runs out",
                        f.message().getId(), f.user(), f.failure().reason(), lease);
                if (f.releasedBy() != null) {
                    // The client that asked only needs its answer: the server sends it later.
                    replies.add(f.releasedBy(), Envelopes.error(f.requestId(), ErrorReply.Code.INTERNAL,
                            "not sent yet: " + f.failure().reason() + "; the server sends it later", false));
                }
                continue;
            }
            settled.add(f);
            refs.add(new ScheduledStore.Ref(f.user(), f.message().getId()));
        }
        if (!refs.isEmpty()) {
            try {
                store.doneAll(refs); // what it could not forget is sent again once its claim runs out
            } catch (RuntimeException e) {
                log.warn("Could not forget {} sent scheduled messages: {}", refs.size(), e.toString());
            }
        }
        for (Outcome f : settled) {
            tell(replies, f);
        }
        replies.send();
    }

    /** Tells the user's terminals: the one that released it as the answer to its request, the others as news. */
    private void tell(Replies replies, Outcome f) {
        ScheduledChange.Builder change = ScheduledChange.newBuilder().setKind(ScheduledChange.Kind.SENT)
                .setMessage(f.message());
        if (f.failure() != null) {
            // Not sent, and no longer scheduled: every terminal is told why, not that it was sent.
            log.warn("Scheduled message {} of {} could not be sent: {}", f.message().getId(), f.user(),
                    f.failure().reason());
            change.setKind(ScheduledChange.Kind.FAILED).setReason(f.failure().reason());
        }
        ScheduledChange told = change.build();
        if (f.releasedBy() != null) {
            replies.add(f.releasedBy(), Envelopes.scheduledChange(f.requestId(), told));
        }
        news.tell(replies, f.user(), f.releasedBy(), () -> told);
    }
}
