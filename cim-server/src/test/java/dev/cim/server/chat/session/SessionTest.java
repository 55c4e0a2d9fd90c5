package dev.cim.server.chat.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.chat.fakes.FakeConnection;
import dev.cim.server.chat.fakes.ListInbox;
import java.util.ArrayDeque;
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

    private final FakeConnection connection = new FakeConnection(INLINE);
    private final ListInbox inbox = new ListInbox();
    private final LocalUsers users = new LocalUsers();
    private final List<String> outcomes = new ArrayList<>();
    private boolean closed;
    private long writtenLive;
    private long writtenFromInbox;
    /** The tasks queued on the owner thread of {@link #queued}, run when the test says. */
    private final ArrayDeque<Runnable> ownerTasks = new ArrayDeque<>();
    private final FakeConnection queued = new FakeConnection(ownerTasks::add);

    private Session session(int window) {
        Session session = open(connection, window, (live, fromInbox) -> {
            writtenLive += live;
            writtenFromInbox += fromInbox;
        });
        users.add(session);
        return session;
    }

    /** A session of bob on {@code on}, whose lane runs inline: held messages past 3, pages of 2. */
    private Session open(FakeConnection on, int window, WriteCounter counter) {
        Sessions node = new Sessions(users, user -> INLINE, inbox, new SessionLimits(window, 1 << 20, 3, 2), counter);
        return node.open("bob", 1, on, s -> closed = true);
    }

    private Delivery delivery(String text) {
        Tracker tracker = new Tracker(1, ByteString.copyFromUtf8(text), "bob", (t, sessions, stored, failure) ->
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
        assertThat(writtenFromInbox).as("counted as read from the inbox").isEqualTo(3);
        assertThat(writtenLive).as("counted as live").isEqualTo(1);
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
    void aCopyToTheSendersOtherSessions_reachesEachButTheSender_andCountsForNothing() {
        Session sender = session(100);
        sender.start();
        FakeConnection otherConnection = new FakeConnection(INLINE);
        Session other = open(otherConnection, 100, WriteCounter.UNCOUNTED);
        users.add(other);
        other.start();

        users.copyToOtherSessions(delivery("seen elsewhere"), sender);
        assertThat(otherConnection.texts()).containsExactly("seen elsewhere");
        assertThat(connection.texts()).isEmpty();

        users.remove(other, new ArrayList<>(), () -> { });
        users.copyToOtherSessions(delivery("alone again"), sender);
        assertThat(otherConnection.texts()).containsExactly("seen elsewhere");
        assertThat(connection.texts()).isEmpty();

        assertThat(other.acknowledged(1)).isTrue();
        assertThat(outcomes).as("a copy settles no receipt").isEmpty();
    }

    /** A session on {@link #queued}, whose owner thread runs only when the test runs its tasks. */
    private Session queuedSession() {
        return open(queued, 100, WriteCounter.UNCOUNTED);
    }

    @Test
    void deliveredReceiptsOfOneDrain_leaveAsOneFrame() {
        Session session = queuedSession();

        for (long n = 1; n <= Answers.RECEIPTS_PER_FRAME + 2; n++) {
            session.delivered(n, 1);
        }
        ownerTasks.poll().run();

        assertThat(queued.written).allSatisfy(e -> assertThat(e.hasReceipts()).isTrue())
                .extracting(e -> e.getReceipts().getRequestIdsCount())
                .containsExactly(Answers.RECEIPTS_PER_FRAME, 2);
        assertThat(queued.written.get(1).getReceipts().getRequestIdsList())
                .containsExactly(Answers.RECEIPTS_PER_FRAME + 1L, Answers.RECEIPTS_PER_FRAME + 2L);
        assertThat(queued.written.get(1).getReceipts().getSessionsList()).containsExactly(1, 1);
    }

    @Test
    void answersAndDeliveriesFromOtherThreads_costOneHandOff_andLeaveInOneFlush() {
        Session session = queuedSession();
        users.add(session);
        session.start();
        while (!ownerTasks.isEmpty()) {
            ownerTasks.poll().run(); // the inbox, empty: live
        }
        int flushesBefore = queued.flushes;

        session.enqueue(delivery("m1"));
        session.answer(Envelopes.ack(1)); // stands for a receipt
        session.enqueue(delivery("m2"));
        session.answer(Envelopes.ack(2));

        assertThat(ownerTasks).as("one drain queued for all four").hasSize(1);
        ownerTasks.poll().run();
        assertThat(queued.written).extracting(e -> e.hasDelivery() ? e.getDelivery().getChat().getText()
                : "answer " + e.getAck().getReceived()).containsExactly("m1", "m2", "answer 1", "answer 2");
        assertThat(queued.flushes - flushesBefore).isEqualTo(1);
    }

    @Test
    void deliveredReceipts_leaveInOneReceiptsFrame_besideOtherAnswers() {
        Session session = session(100);
        session.start();

        session.delivered(1, 1);
        session.answer(Envelopes.error(2, ErrorReply.Code.INBOX_FULL, "full", false));
        session.delivered(3, 2);

        assertThat(connection.written).filteredOn(Envelope::hasError).hasSize(1);
        assertThat(connection.written.stream().filter(Envelope::hasReceipts)
                .flatMap(e -> e.getReceipts().getRequestIdsList().stream())).containsExactly(1L, 3L);
    }

    @Test
    void pauseReading_lastsUntilItsConditionHolds_askedAfterEachAnswer() {
        Session session = open(connection, 100, WriteCounter.UNCOUNTED);
        users.add(session);
        session.start();
        int[] pending = {5};

        session.pauseReading(() -> pending[0] <= 2);
        session.pauseReading(() -> true); // already paused: nothing to tell the connection, the first condition stays
        for (long n = 1; n <= 3; n++) {
            pending[0]--;
            session.answer(Envelopes.ack(n));
        }

        // 4 and 3 pending: still paused; 2: reading again.
        assertThat(connection.pauses).containsExactly(true, false);
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
    void closed_whileTheServerStops_finishesWithoutItsTerminatedEventLoop() {
        boolean[] stopped = {false};
        FakeConnection stopping = new FakeConnection(task -> {
            if (stopped[0]) {
                throw new java.util.concurrent.RejectedExecutionException("event executor terminated");
            }
            task.run();
        });
        Session session = open(stopping, 100, WriteCounter.UNCOUNTED);
        users.add(session);
        session.start();
        session.enqueue(delivery("a"));
        stopped[0] = true; // the server stops: its event loops are gone before the session's store completes

        session.closed();

        assertThat(inbox.texts()).containsExactly("a");
        assertThat(closed).as("told it closed, on the thread that stored").isTrue();
        assertThat(session.state()).isEqualTo(Session.State.CLOSED);
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
        Session session = new Sessions(users, user -> lane, inbox, new SessionLimits(100, 1 << 20, 3, 2),
                WriteCounter.UNCOUNTED).open("bob", 1, connection, s -> closed = true);
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
