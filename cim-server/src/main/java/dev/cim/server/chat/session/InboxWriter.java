package dev.cim.server.chat.session;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.server.store.InboxStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores what a session took and will not deliver (its window and held messages when it closes, the
 * held messages past their limit while it reads the inbox) in its user's inbox, on the user's lane,
 * in order behind whatever was queued there before, and settles each message's part of its receipt:
 * stored, or failed with the reason when the store refused.
 */
final class InboxWriter {

    private static final Logger log = LoggerFactory.getLogger(InboxWriter.class);

    private final String user;
    private final InboxStore inbox;
    private final Executor lane;

    InboxWriter(String user, InboxStore inbox, Executor lane) {
        this.user = user;
        this.inbox = inbox;
        this.lane = lane;
    }

    /** Stores {@code deliveries} on the lane, settling their trackers, then runs {@code then} there. */
    void store(List<Delivery> deliveries, Runnable then) {
        store(() -> deliveries, then);
    }

    /**
     * Stores what {@code taken} gives on the lane when the store's turn comes there (what a closing
     * session left, with what joined it meanwhile), settling their trackers, then runs {@code then} there.
     */
    void store(Supplier<List<Delivery>> taken, Runnable then) {
        lane.execute(() -> {
            List<Delivery> deliveries = taken.get();
            if (deliveries.isEmpty()) {
                then.run(); // after any store queued before, like the others
                return;
            }
            List<Chat> chats = new ArrayList<>(deliveries.size());
            deliveries.forEach(d -> chats.add(d.chat()));
            Tracker.Failure problem = null;
            try {
                inbox.store(user, chats);
            } catch (RuntimeException e) {
                log.error("Could not store {} messages in the inbox of {}: {}", chats.size(), user, e.toString());
                problem = Tracker.Failure.ofStore(e, "message not delivered");
            }
            for (Delivery delivery : deliveries) {
                if (delivery.tracker() != null) {
                    if (problem == null) {
                        delivery.tracker().stored();
                    } else {
                        delivery.tracker().failed(problem);
                    }
                }
            }
            then.run();
        });
    }

    /** Removes acknowledged entries on the lane; on failure they come again at the next login, and the client drops them. */
    void remove(List<InboxStore.Entry> entries) {
        lane.execute(() -> {
            try {
                inbox.remove(user, entries);
            } catch (RuntimeException e) {
                log.warn("Could not remove {} acknowledged messages from the inbox of {}: {}", entries.size(), user,
                        e.toString());
            }
        });
    }
}
