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

    /** A message read from the inbox, written and not yet acknowledged, and where it sits in the inbox. */
    private record FromInbox(Delivery delivery, InboxStore.Entry inboxEntry) {
    }

    /**
     * What an acknowledgement settled beyond the live messages' receipts.
     *
     * @param fromInbox the inbox entries among them, to remove
     * @param groups    for each group with messages among them, the position of the last
     */
    record Acknowledged(List<InboxStore.Entry> fromInbox, Map<String, String> groups) {
    }

    /**
     * A {@link Delivery} for a live message or a group's, a {@link FromInbox} for one read from the
     * inbox: most are live, and go in as they are, with nothing made for each (a record per message,
     * read back at its acknowledgement, took 2 % of the server's samples in the closed loop). Sized
     * for an idle session (the default's 16 slots, times two deques, are 0.1 KB an idle connection).
     */
    private final ArrayDeque<Object> sent = new ArrayDeque<>(1);
    private long bytes;
    private long written;
    private long writtenFromInbox;
    private long acknowledged;
    private long reportedLive;
    private long reportedFromInbox;

    /** {@code delivery} was written; {@code inboxEntry} is where it sits in the inbox, or null for a live one. */
    void add(Delivery delivery, InboxStore.Entry inboxEntry) {
        if (inboxEntry == null) {
            sent.add(delivery);
        } else {
            sent.add(new FromInbox(delivery, inboxEntry));
            writtenFromInbox++;
        }
        bytes += delivery.bytes();
        written++;
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
            Object done = sent.poll();
            if (done instanceof FromInbox read) {
                bytes -= read.delivery().bytes();
                if (fromInbox.isEmpty()) {
                    fromInbox = new ArrayList<>();
                }
                fromInbox.add(read.inboxEntry());
                continue;
            }
            Delivery delivery = (Delivery) done;
            bytes -= delivery.bytes();
            if (delivery.position() != null) {
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
        for (Object s : sent) {
            if (s instanceof Delivery delivery) {
                live.add(delivery);
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
