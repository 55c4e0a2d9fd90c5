package dev.cim.server.chat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.store.InboxStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * A session's delivery, with everything on the test's thread: the connection records what is
 * written, the inbox is a list.
 */
class SessionTest {

    private static final Executor INLINE = Runnable::run;

    /** A connection that keeps what is written. */
    private static final class FakeConnection implements Connection {
        final List<Envelope> written = new ArrayList<>();
        boolean open = true;
        String closedBecause;

        @Override
        public Executor owner() {
            return INLINE;
        }

        @Override
        public boolean inOwner() {
            return true;
        }

        @Override
        public void write(Envelope envelope) {
            written.add(envelope);
        }

        @Override
        public void flush() {
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public long pendingBytes() {
            return 0;
        }

        @Override
        public void close(ErrorReply.Code code, String reason) {
            open = false;
            closedBecause = reason;
        }

        @Override
        public void readPaused(boolean paused) {
        }

        @Override
        public String remote() {
            return "test";
        }

        @Override
        public String remoteHost() {
            return "192.0.2.1";
        }

        List<String> texts() {
            return written.stream().filter(Envelope::hasDelivery).map(e -> e.getDelivery().getChat().getText()).toList();
        }
    }

    /** An inbox in a list, ids "1", "2", ... */
    private static final class ListInbox implements InboxStore {
        final List<Entry> entries = new ArrayList<>();
        int next = 1;

        @Override
        public Offer storeIfOffline(String user, Chat chat) {
            store(user, List.of(chat));
            return new Offer.Stored(entries.get(entries.size() - 1).id());
        }

        @Override
        public List<String> store(String user, List<Chat> chats) {
            List<String> ids = new ArrayList<>();
            for (Chat chat : chats) {
                String id = Integer.toString(next++);
                entries.add(new Entry(id, chat, chat.getSerializedSize()));
                ids.add(id);
            }
            return ids;
        }

        @Override
        public List<Entry> page(String user, String after, int count) {
            long from = Long.parseLong(after);
            return entries.stream().filter(e -> Long.parseLong(e.id()) > from).limit(count).toList();
        }

        @Override
        public void remove(String user, List<Entry> removed) {
            entries.removeAll(removed);
        }

        List<String> texts() {
            return entries.stream().map(e -> e.chat().getText()).toList();
        }
    }

    private final FakeConnection connection = new FakeConnection();
    private final ListInbox inbox = new ListInbox();
    private final LocalUsers users = new LocalUsers();
    private final List<String> outcomes = new ArrayList<>();
    private boolean closed;

    private Session session(int window) {
        Limits limits = new Limits(window, 1 << 20, 3, 2, 100, Duration.ofSeconds(1), 4000, 100, 500);
        Session session = new Session(1, "bob", new Origin("bob", 1, 0, 0), connection, users, inbox, INLINE, limits,
                s -> closed = true);
        users.add(session);
        return session;
    }

    private Delivery delivery(String text) {
        Tracker tracker = new Tracker(1, text, "bob", (t, sessions, stored, failure) ->
                outcomes.add(text + (failure != null ? " failed" : stored ? " stored" : " delivered")));
        tracker.expect();
        tracker.seal();
        return Delivery.of(Chat.newBuilder().setId(text).setSender("alice").setRecipient("bob").setText(text).build(), tracker);
    }

    @Test
    void start_readsTheInboxInPages_thenWritesWhatWasHeldMeanwhile_inOrder() {
        inbox.store("bob", List.of(chat("old1"), chat("old2"), chat("old3")));
        Session session = session(100);
        session.enqueue(delivery("live1")); // held: the inbox comes first

        session.start();

        assertThat(connection.texts()).containsExactly("old1", "old2", "old3", "live1");
        assertThat(session.state()).isEqualTo(Session.State.LIVE);
    }

    @Test
    void acknowledged_settlesTheLiveMessagesAndRemovesTheInboxOnes() {
        inbox.store("bob", List.of(chat("old")));
        Session session = session(100);
        session.start();
        session.enqueue(delivery("live"));

        assertThat(session.acknowledged(2)).isTrue();

        assertThat(outcomes).containsExactly("live delivered");
        assertThat(inbox.entries).isEmpty();
        assertThat(session.unacknowledged()).isZero();
    }

    @Test
    void acknowledged_moreThanWritten_orFewerThanBefore_isRefused() {
        Session session = session(100);
        session.start();
        session.enqueue(delivery("one"));

        assertThat(session.acknowledged(2)).isFalse();
        assertThat(session.acknowledged(1)).isTrue();
        assertThat(session.acknowledged(0)).isFalse();
    }

    @Test
    void closed_storesWhatWasNotAcknowledged_inOrder_andLeavesTheRegistry() {
        Session session = session(100);
        session.start();
        session.enqueue(delivery("a"));
        session.enqueue(delivery("b"));
        session.acknowledged(1);

        session.closed();

        assertThat(inbox.texts()).containsExactly("b");
        assertThat(outcomes).containsExactly("a delivered", "b stored");
        assertThat(users.get("bob")).isNull();
        assertThat(closed).isTrue();
    }

    @Test
    void closed_queuesItsStoreBeforeRoutersCanSeeItGone_soNothingNewerIsStoredAheadOfIt() {
        // Routers hand a message over under the user's entry lock and, finding no session, queue
        // its offline store on the lane after letting the lock go. The session's own store must be
        // queued under that lock, or a newer message could be stored ahead of the ones it held.
        UserEntry[] entry = new UserEntry[1];
        List<Boolean> queuedUnderTheLock = new ArrayList<>();
        java.util.concurrent.Executor lane = task -> {
            queuedUnderTheLock.add(Thread.holdsLock(entry[0]));
            task.run();
        };
        Limits limits = new Limits(100, 1 << 20, 3, 2, 100, Duration.ofSeconds(1), 4000, 100, 500);
        Session session = new Session(1, "bob", new Origin("bob", 1, 0, 0), connection, users, inbox, lane, limits,
                s -> closed = true);
        users.add(session);
        entry[0] = users.get("bob");
        session.start();
        session.enqueue(delivery("unacknowledged"));
        queuedUnderTheLock.clear();

        session.closed();

        assertThat(queuedUnderTheLock).first().as("the store queued under the entry lock").isEqualTo(true);
        assertThat(inbox.texts()).containsExactly("unacknowledged");
    }

    @Test
    void heldPastTheLimit_isStoredBehindWhatIsRead_andStillComesInOrder() {
        inbox.store("bob", List.of(chat("old1"), chat("old2"), chat("old3"), chat("old4"), chat("old5")));
        Session session = session(4); // room for 2 per page: the catch-up stops for acknowledgements
        session.start();
        for (int i = 0; i < 5; i++) {
            session.enqueue(delivery("live" + i)); // more than 3 held: stored after the inbox
        }
        assertThat(outcomes).hasSizeGreaterThanOrEqualTo(4).allMatch(o -> o.endsWith("stored"));
        long acked = 0;
        while (connection.texts().size() > acked) {
            acked = connection.texts().size();
            session.acknowledged(acked);
        }

        assertThat(connection.texts()).containsExactly("old1", "old2", "old3", "old4", "old5", "live0", "live1",
                "live2", "live3", "live4");
        assertThat(session.state()).isEqualTo(Session.State.LIVE);
    }

    @Test
    void windowOverflow_closesTheSessionWithAReason_andNothingIsLost() {
        Session session = session(3);
        session.start();
        for (int i = 0; i < 5; i++) {
            session.enqueue(delivery("m" + i));
        }

        assertThat(connection.open).isFalse();
        assertThat(connection.closedBecause).contains("not reading");
        assertThat(inbox.texts()).containsExactly("m0", "m1", "m2", "m3", "m4");
        assertThat(outcomes).hasSize(5).allMatch(o -> o.endsWith("stored"));
    }

    private static Chat chat(String text) {
        return Chat.newBuilder().setId(text).setSender("alice").setRecipient("bob").setText(text).build();
    }
}
