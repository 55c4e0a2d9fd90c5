package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.chat.routing.Cluster;
import dev.cim.server.store.ScheduledStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * "When online" messages: held like any scheduled message (due at their deadline, or never), and
 * noted in a set of their recipient's ({@link ScheduledStore#waitFor}), read when the recipient
 * logs in, on whatever node: each one noted is claimed then, whatever its due time, and sent, after
 * what the recipient's inbox held (the session delivers what is routed to it behind its inbox). A
 * message scheduled while its recipient is online goes at once. The note is made before the
 * message is registered and forgotten once it is sent, dropped or cancelled, so a message is never
 * held without its note; a note whose message is gone (a crash between the two) is passed over at
 * each login until forgotten.
 *
 * <p>At its deadline the server's timer claims it like any other message, and {@link Firing} drops
 * it: its recipient did not log in in time.
 */
final class OnlineWaits {

    private static final Logger log = LoggerFactory.getLogger(OnlineWaits.class);

    /** Notes read at one login: more wait for the next. */
    static final int PER_LOGIN = 10_000;

    private final ScheduledStore store;
    private final UserLanes lanes;
    private final Clock clock;
    private final Duration lease;
    private final Cluster cluster;
    private final Firing firing;

    OnlineWaits(ScheduledStore store, UserLanes lanes, Clock clock, Duration lease, Cluster cluster, Firing firing) {
        this.store = store;
        this.lanes = lanes;
        this.clock = clock;
        this.lease = lease;
        this.cluster = cluster;
        this.firing = firing;
    }

    static boolean whenOnline(Scheduled message) {
        return message.getTiming().getWhenOnline();
    }

    /** Before {@code draft} of {@code sender} is registered: notes it for its recipient. Blocks. */
    void note(String sender, Scheduled draft) {
        store.waitFor(draft.getRecipient(), new ScheduledStore.Ref(sender, draft.getId()));
    }

    /** {@code message} is registered: sent at once if its recipient is online. Blocks (presence). */
    void registered(Scheduled message) {
        if (cluster.onlineAnywhere(message.getRecipient())) {
            recipientOnline(message.getRecipient());
        }
    }

    /** {@code user} logged in (or is online): sends what waits for them, on their lane. */
    void recipientOnline(String user) {
        lanes.of(user).execute(() -> deliver(user));
    }

    /** {@code message} of {@code sender} was sent, dropped or cancelled: forgets its note. Blocks. */
    void forget(String sender, Scheduled message) {
        try {
            store.unwait(message.getRecipient(), List.of(new ScheduledStore.Ref(sender, message.getId())));
        } catch (RuntimeException e) {
            log.warn("Could not forget that {} waits for {} to log in: {}", message.getId(), message.getRecipient(),
                    e.toString());
        }
    }

    private void deliver(String user) {
        try {
            List<ScheduledStore.Ref> waiting = store.waiting(user, PER_LOGIN);
            if (waiting.isEmpty()) {
                return;
            }
            long now = clock.millis();
            List<ScheduledStore.Claim> claims = store.claimAllNow(waiting, now, now + lease.toMillis());
            List<Scheduled> sending = new ArrayList<>();
            List<String> senders = new ArrayList<>();
            for (int i = 0; i < claims.size(); i++) {
                if (claims.get(i) instanceof ScheduledStore.Claim.Claimed claimed) {
                    sending.add(claimed.message());
                    senders.add(waiting.get(i).user());
                }
            }
            // In the order they were scheduled, per sender (their numbers).
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < sending.size(); i++) {
                order.add(i);
            }
            order.sort((a, b) -> senders.get(a).equals(senders.get(b))
                    ? Long.compare(sending.get(a).getNumber(), sending.get(b).getNumber())
                    : senders.get(a).compareTo(senders.get(b)));
            for (int i : order) {
                firing.fireOnline(senders.get(i), sending.get(i));
            }
        } catch (RuntimeException e) {
            log.warn("Could not send the messages waiting for {} to log in; they go at the next login: {}", user,
                    e.toString());
        }
    }
}
