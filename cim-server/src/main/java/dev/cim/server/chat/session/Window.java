package dev.cim.server.chat.session;

import dev.cim.server.store.InboxStore;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    /**
     * What an acknowledgement settled beyond the live messages' receipts.
     *
     * @param fromInbox the inbox entries among them, to remove
     * @param groups    for each group with messages among them, the position of the last
     */
    record Acknowledged(List<InboxStore.Entry> fromInbox, Map<String, String> groups) {
    }

    /** Sized for an idle session (the default's 16 slots, times two deques, are 0.1 KB an idle connection). */
    private final ArrayDeque<Sent> sent = new ArrayDeque<>(1);
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
     * @return what else they settle, or null when the number is impossible (more than was written, or
     *         less than before)
     */
    Acknowledged acknowledge(long received) {
        if (received > written || received < acknowledged) {
            return null;
        }
        List<InboxStore.Entry> fromInbox = List.of();
        Map<String, String> groups = Map.of();
        for (long n = acknowledged; n < received; n++) {
            Sent done = sent.poll();
            Delivery delivery = done.delivery();
            bytes -= delivery.bytes();
            if (done.inboxEntry() != null) {
                if (fromInbox.isEmpty()) {
                    fromInbox = new ArrayList<>();
                }
                fromInbox.add(done.inboxEntry());
            } else if (delivery.position() != null) {
                if (groups.isEmpty()) {
                    groups = new HashMap<>();
                }
                groups.put(delivery.group(), delivery.position()); // written in order: the last is the furthest
            } else if (delivery.tracker() != null) {
                delivery.tracker().delivered();
            }
        }
        acknowledged = received;
        return new Acknowledged(fromInbox, groups);
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
