package dev.cim.server.chat.session;

import dev.cim.server.store.InboxStore;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A session's window: the messages written to its client and not yet acknowledged, in the order
 * written. The client acknowledges how many it has received on the connection in all (like XMPP
 * stream management's {@code <a h='n'/>}); acknowledged messages leave the window, the live ones
 * settling their part of their sender's receipt, the ones read from the inbox to be removed from it.
 * It counts what was written, for the session's metrics. Owner-confined.
 */
final class Window {

    /** A message written and not yet acknowledged; {@code inboxEntry} is set when it came from the inbox. */
    private record Sent(Delivery delivery, InboxStore.Entry inboxEntry) {
    }

    private final ArrayDeque<Sent> sent = new ArrayDeque<>();
    private long bytes;
    private long written;
    private long writtenFromInbox;
    private long acknowledged;
    private long reportedLive;
    private long reportedFromInbox;

    /** {@code delivery} was written; {@code inboxEntry} is where it sits in the inbox, or null for a live one. */
    void add(Delivery delivery, InboxStore.Entry inboxEntry) {
        sent.add(new Sent(delivery, inboxEntry));
        bytes += delivery.bytes();
        written++;
        if (inboxEntry != null) {
            writtenFromInbox++;
        }
    }

    /** Messages written and not acknowledged. */
    int size() {
        return sent.size();
    }

    /** Their bytes. */
    long bytes() {
        return bytes;
    }

    boolean isOver(SessionLimits limits) {
        return sent.size() > limits.windowMessages() || bytes > limits.windowBytes();
    }

    /**
     * The client acknowledged {@code received} messages in all on this connection: settles the live
     * ones among them.
     *
     * @return the inbox entries among them, to remove (empty when none), or null when the number is
     *         impossible (more than was written, or less than before)
     */
    List<InboxStore.Entry> acknowledge(long received) {
        if (received > written || received < acknowledged) {
            return null;
        }
        List<InboxStore.Entry> fromInbox = List.of();
        for (long n = acknowledged; n < received; n++) {
            Sent done = sent.poll();
            bytes -= done.delivery().bytes();
            if (done.inboxEntry() != null) {
                if (fromInbox.isEmpty()) {
                    fromInbox = new ArrayList<>();
                }
                fromInbox.add(done.inboxEntry());
            } else if (done.delivery().tracker() != null) {
                done.delivery().tracker().delivered();
            }
        }
        acknowledged = received;
        return fromInbox;
    }

    /**
     * Empties the window (the session is closing) and returns its live messages, in order, to be
     * stored; those read from the inbox are there still.
     */
    List<Delivery> takeLive() {
        List<Delivery> live = new ArrayList<>();
        for (Sent s : sent) {
            if (s.inboxEntry() == null) {
                live.add(s.delivery());
            }
        }
        sent.clear();
        bytes = 0;
        return live;
    }

    /** Messages read from the inbox and written, in all. */
    long writtenFromInbox() {
        return writtenFromInbox;
    }

    /** Tells {@code counter} what was written since it was last told. */
    void report(WriteCounter counter) {
        long live = written - writtenFromInbox;
        counter.written(live - reportedLive, writtenFromInbox - reportedFromInbox);
        reportedLive = live;
        reportedFromInbox = writtenFromInbox;
    }
}
