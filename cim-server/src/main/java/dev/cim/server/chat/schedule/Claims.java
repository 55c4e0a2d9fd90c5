package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.server.chat.platform.LaneBatches;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.chat.session.Session;
import dev.cim.server.store.ScheduledStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims due messages for sending, exactly once across nodes: whoever asks first (the sender's
 * client releasing its message, or the server's job firing) claims it in the store in one atomic
 * step, for a lease; the other finds it gone. Claims are made in batches per lane, so a burst of
 * messages due together costs a round trip per batch. A claimed message goes to {@link Firing}; one
 * not due yet by the server's clock is held again; one whose claim failed is read again by the next
 * scan.
 */
final class Claims {

    private static final Logger log = LoggerFactory.getLogger(Claims.class);

    /**
     * A message to claim for sending.
     *
     * @param releasedBy the session whose client asked to send it (answered as request {@code requestId}),
     *                   or null when the server's own job fired
     * @param held       the message as the server's job held it, when that job fired
     */
    private record Claiming(String user, String id, Session releasedBy, long requestId, Scheduled held) {
    }

    private final ScheduledStore store;
    private final Clock clock;
    private final Duration lease;
    private final ServerTimers timers;
    private final Firing firing;
    private final Runnable rescan;
    private final LaneBatches<Claiming> batches;

    /**
     * @param rescan told when a claim failed: its message is no longer held, and a scan must find it
     */
    Claims(ScheduledStore store, UserLanes lanes, Clock clock, Duration lease, ServerTimers timers, Firing firing,
            Runnable rescan) {
        this.store = store;
        this.clock = clock;
        this.lease = lease;
        this.timers = timers;
        this.firing = firing;
        this.rescan = rescan;
        this.batches = new LaneBatches<>(lanes, this::claimAll);
    }

    /** The sender's client asks to send message {@code id} now (its job there fired): request {@code requestId}. */
    void released(Session session, long requestId, String id) {
        batches.add(session.user(), new Claiming(session.user(), id, session, requestId, null));
    }

    /** The server's job for {@code message} of {@code user} fired. */
    void due(String user, Scheduled message) {
        batches.add(user, new Claiming(user, message.getId(), null, 0, message));
    }

    /**
     * On a lane: claims a batch of messages in one round trip (of those the server's jobs fired, the
     * ones not left to their senders), then sends each one claimed.
     */
    private void claimAll(List<Claiming> batch) {
        List<Claiming> asking = new ArrayList<>(batch.size());
        for (Claiming c : batch) {
            if (c.releasedBy() != null || !timers.leftToSender(c.user(), c.held())) {
                asking.add(c);
            }
        }
        if (asking.isEmpty()) {
            return;
        }
        List<ScheduledStore.Ref> refs = new ArrayList<>(asking.size());
        asking.forEach(c -> refs.add(new ScheduledStore.Ref(c.user(), c.id())));
        long now = clock.millis();
        List<ScheduledStore.Claim> results;
        try {
            results = store.claimAll(refs, now, now + lease.toMillis());
        } catch (RuntimeException e) {
            results = Collections.nCopies(asking.size(), new ScheduledStore.Claim.Failed(e));
        }
        for (int i = 0; i < asking.size(); i++) {
            Claiming c = asking.get(i);
            if (c.releasedBy() == null) {
                claimedForServer(c.user(), c.id(), results.get(i));
            } else {
                claimedForSender(c.releasedBy(), c.requestId(), c.id(), results.get(i));
            }
        }
    }

    private void claimedForSender(Session session, long id, String messageId, ScheduledStore.Claim claim) {
        if (claim instanceof ScheduledStore.Claim.Claimed claimed) {
            timers.unhold(session.user(), messageId);
            firing.fire(session.user(), claimed.message(), claimed.lapsed(), session, id);
        } else if (claim instanceof ScheduledStore.Claim.NotDue notDue) {
            timers.hold(session.user(), notDue.message()); // the server sends it at its time
            Reply.to(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "scheduled message " + messageId
                    + " is not due yet by the server's clock; it will be sent at its time", false));
        } else if (claim instanceof ScheduledStore.Claim.Failed failure) {
            rescan.run(); // the server sends it once Redis answers again
            Reply.failed(session, id, failure.cause());
        } else {
            Reply.to(session, Reply.notFound(id, messageId));
        }
    }

    private void claimedForServer(String user, String id, ScheduledStore.Claim claim) {
        if (claim instanceof ScheduledStore.Claim.Claimed claimed) {
            firing.fire(user, claimed.message(), claimed.lapsed(), null, 0);
        } else if (claim instanceof ScheduledStore.Claim.NotDue notDue) {
            timers.hold(user, notDue.message());
        } else if (claim instanceof ScheduledStore.Claim.Failed failure) {
            rescan.run();
            log.warn("Could not send scheduled message {} of {}; the next scan retries: {}", id, user,
                    failure.cause().toString());
        }
    }
}
