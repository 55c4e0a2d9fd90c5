package dev.cim.server.chat.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.ScheduledChange;
import dev.cim.common.protocol.proto.SentRecord;
import dev.cim.common.protocol.proto.Timing;
import dev.cim.common.wheel.DelayScheduler;
import dev.cim.server.chat.fakes.FakeConnection;
import dev.cim.server.chat.fakes.ListInbox;
import dev.cim.server.chat.fakes.MapPresence;
import dev.cim.server.chat.fakes.MapScheduledStore;
import dev.cim.server.chat.fakes.RecordingBus;
import dev.cim.server.chat.platform.KnownUsers;
import dev.cim.server.chat.platform.Platform;
import dev.cim.server.chat.platform.Recipients;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.chat.routing.Cluster;
import dev.cim.server.chat.routing.GroupPosts;
import dev.cim.server.chat.routing.Router;
import dev.cim.server.chat.routing.Transcript;
import dev.cim.server.chat.session.LocalUsers;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.SessionLimits;
import dev.cim.server.chat.session.Sessions;
import dev.cim.server.chat.session.WriteCounter;
import dev.cim.server.store.ScheduledStore;
import dev.cim.server.support.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The server's side of scheduled messages, on one node whose clock stands still: the store is a
 * fake in memory (claims can be made to fail); the lanes, the wheel and the router are real.
 */
class SchedulingTest {

    private static final Duration LEASE = Duration.ofSeconds(60);

    private final MutableClock clock = new MutableClock();
    private final MapScheduledStore store = new MapScheduledStore();
    private final ListInbox inbox = new ListInbox();
    private final LocalUsers users = new LocalUsers();
    private final UserLanes lanes = new UserLanes(1);
    private final DelayScheduler wheel = DelayScheduler.builder().tick(Duration.ofMillis(10)).build();
    private final MapPresence presence = new MapPresence("here", Map.of(), Map.of("here", "127.0.0.1:1"));
    private final RecordingBus bus = new RecordingBus();
    private final Cluster cluster = new Cluster(users, presence, bus);
    private final Platform platform = new Platform(lanes, wheel, clock, System::nanoTime, new SimpleMeterRegistry());
    private final Router router = new Router(cluster, platform, inbox, Duration.ofSeconds(1), GroupPosts.NONE,
            Transcript.NONE);
    private final Scheduling scheduling = new Scheduling(store,
            new Recipients(new KnownUsers(users -> Set.copyOf(users), 100), null, users -> java.util.Map.of()),
            router, cluster, platform,
            new ScheduleSettings(Duration.ofDays(400), 1000, Duration.ofHours(1), Duration.ofMillis(50),
                    Duration.ofSeconds(2), LEASE, new ScheduledStore.Keep(Duration.ofDays(30), 100)),
            4000);
    private final Sessions sessions = new Sessions(users, lanes::of, inbox, new SessionLimits(100, 1 << 20, 100, 10),
            WriteCounter.UNCOUNTED);

    @AfterEach
    void stop() {
        scheduling.close();
        wheel.stopNow();
        lanes.close(1_000);
    }

    @Test
    void dueMessageOfAnOfflineSender_isClaimedAndRouted_once() {
        store.put("alice", message("m1", "hello", clock.millis() - 1));

        scheduling.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> inbox.texts().contains("hello"));
        assertThat(store.claimed).containsExactly(new ScheduledStore.Ref("alice", "m1"));
    }

    @Test
    void messageWhoseClaimFailed_isClaimedAgainAtTheNextScan_notALeaseLater() {
        // The store does not answer when the message comes due; it answers again at once after.
        // The scans read only what entered the window since the last one, so without a rescan the
        // message would wait for the lease to pass over it: a minute late, here never (the clock
        // stands still).
        store.failClaims.set(1);
        store.put("alice", message("m1", "hello", clock.millis() - 1));

        scheduling.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> inbox.texts().contains("hello"));
        assertThat(store.claimed).containsExactly(new ScheduledStore.Ref("alice", "m1"));
        assertThat(inbox.texts()).containsExactly("hello");
    }

    @Test
    void dueMessageThatCannotBeSent_isToldToTheSendersTerminalsAsFailed_notAsSent() throws Exception {
        inbox.full.add("bob");
        ExecutorService alicesThread = Executors.newSingleThreadExecutor();
        try {
            FakeConnection terminal = new FakeConnection(alicesThread);
            online("alice", terminal);
            store.put("alice", message("m1", "hello", clock.millis() - 1));

            scheduling.start(); // alice's client releases nothing: the server sends it after the grace

            await().atMost(Duration.ofSeconds(10)).until(() -> terminal.written.stream()
                    .anyMatch(e -> e.hasScheduledChange() && e.getScheduledChange().getKind() == ScheduledChange.Kind.FAILED));
            ScheduledChange told = terminal.written.stream().filter(Envelope::hasScheduledChange)
                    .map(Envelope::getScheduledChange).toList().get(0);
            assertThat(told.getReason()).isEqualTo("the inbox of bob is full");
            assertThat(told.getMessage().getId()).isEqualTo("m1");
            assertThat(terminal.written).filteredOn(Envelope::hasScheduledChange).hasSize(1);
            assertThat(inbox.texts()).isEmpty();
        } finally {
            alicesThread.shutdownNow();
        }
    }

    @Test
    void dueMessageThatTheStoreFailedToTake_isNeitherForgottenNorToldFailed_andIsSentOnceItsLeaseRunsOut() {
        inbox.failStores.set(1);
        store.put("alice", message("m1", "hello", clock.millis() - 1));

        scheduling.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> store.claimed.size() == 1);
        assertThat(inbox.texts()).isEmpty();

        clock.advance(LEASE.plusSeconds(1)); // its claim runs out: a scan takes it again
        await().atMost(Duration.ofSeconds(10)).until(() -> inbox.texts().contains("hello"));
        assertThat(store.claimed).hasSize(2);
        assertThat(inbox.texts()).containsExactly("hello");
    }

    @Test
    void releaseThatTheStoreFailedToTake_isAnsweredNotSentYet_andNothingIsToldFailed() throws Exception {
        inbox.failStores.set(1);
        store.put("alice", message("m1", "hello", clock.millis() - 1));
        ExecutorService alicesThread = Executors.newSingleThreadExecutor();
        try {
            FakeConnection terminal = new FakeConnection(alicesThread);
            Session alice = online("alice", terminal);

            alicesThread.submit(() -> scheduling.handle(alice, Envelopes.release(5, "m1"))).get();

            await().atMost(Duration.ofSeconds(10)).until(() -> terminal.written.stream()
                    .anyMatch(e -> e.getRequestId() == 5 && e.hasError()));
            Envelope answer = terminal.written.stream().filter(e -> e.getRequestId() == 5).findFirst().orElseThrow();
            assertThat(answer.getError().getMessage()).startsWith("not sent yet: ").endsWith("; the server sends it later");
            assertThat(terminal.written).noneMatch(Envelope::hasScheduledChange);
            assertThat(inbox.texts()).isEmpty();
        } finally {
            alicesThread.shutdownNow();
        }
    }

    @Test
    void messagesDueTogether_areSentInTheOrderTheyWereScheduled_whateverOrderTheirJobsFire() {
        // Numbered 1..30, held under ids whose order in the store is another: their jobs, due
        // together, are held (and may fire) in any order.
        for (int n = 1; n <= 30; n++) {
            store.put("alice", message("id-" + (char) ('a' + (n * 7) % 30), n, "part " + n, clock.millis() - 1));
        }

        scheduling.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> inbox.texts().size() == 30);
        assertThat(inbox.texts()).containsExactlyElementsOf(
                java.util.stream.IntStream.rangeClosed(1, 30).mapToObj(n -> "part " + n).toList());
    }

    @Test
    void dueTimesFromTheNetwork_farInThePast_areSentNow_andBeyondTheMaximum_areRefused() throws Exception {
        ExecutorService alicesThread = Executors.newSingleThreadExecutor();
        try {
            FakeConnection terminal = new FakeConnection(alicesThread);
            Session alice = online("alice", terminal);
            scheduling.start();
            long before = clock.millis();

            alicesThread.submit(() -> {
                scheduling.handle(alice, Envelopes.schedule(1, "bob", "min", Long.MIN_VALUE, 0));
                scheduling.handle(alice, Envelopes.schedule(2, "bob", "min+", Long.MIN_VALUE + 1_000_000_000_000L, 0));
                scheduling.handle(alice, Envelopes.schedule(3, "bob", "max", Long.MAX_VALUE, 0));
            }).get();

            await().atMost(Duration.ofSeconds(10)).until(() -> inbox.texts().size() == 2);
            assertThat(inbox.texts()).containsExactlyInAnyOrder("min", "min+");
            Envelope refused = terminal.written.stream().filter(e -> e.getRequestId() == 3).findFirst().orElseThrow();
            assertThat(refused.getError().getMessage()).contains("more than 400 days ahead");
            assertThat(terminal.written).filteredOn(e -> e.getRequestId() == 1).singleElement()
                    .satisfies(e -> assertThat(e.getScheduledChange().getMessage().getDueAtMillis())
                            .as("a due time past is now").isBetween(before, clock.millis()));
        } finally {
            alicesThread.shutdownNow();
        }
    }

    /** A session of {@code user} in the registry, on {@code terminal}. */
    private Session online(String user, FakeConnection terminal) {
        Session session = sessions.open(user, 1, terminal, s -> { });
        users.add(session);
        return session;
    }

    @Test
    void messageLaterThanItsLatePolicyAllows_isDropped_recorded_andNotSent() {
        store.put("alice", message("m1", "too late", clock.millis() - Duration.ofHours(1).toMillis()).toBuilder()
                .setTiming(Timing.newBuilder().setDropLateAfterMillis(Duration.ofMinutes(10).toMillis())).build());

        scheduling.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> !store.records("alice", 10, 0).isEmpty());
        SentRecord record = store.records("alice", 10, 0).get(0);
        assertThat(record.getOutcome()).isEqualTo(ScheduledChange.Kind.DROPPED);
        assertThat(record.getReason()).isEqualTo("not sent: it would have gone 1h late, past its limit of 10m");
        assertThat(store.count()).isZero();
        assertThat(inbox.texts()).isEmpty();
    }

    @Test
    void recurringMessageAfterAnOutage_sendsOnlyTheLatestOccurrenceDue_andGoesOnFromIt() {
        long start = clock.millis() - Duration.ofMinutes(10).toMillis() - 30_000; // occurrences every minute
        store.put("alice", message("m1", "tick", start + 60_000).toBuilder().setOccurrence(1).setSeriesStartMillis(start)
                .setTiming(Timing.newBuilder().setEvery("1m").setZone("UTC")).build());

        scheduling.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> !inbox.texts().isEmpty());
        Chat sent = inbox.chats().get(0);
        assertThat(sent.getId()).isEqualTo("m1.10");
        assertThat(sent.getDelay().getOccurrence()).isEqualTo(10);
        assertThat(sent.getDelay().getMissed()).isEqualTo(9);
        assertThat(sent.getDelay().getDueAtMillis()).isEqualTo(start + 10 * 60_000);
        await().atMost(Duration.ofSeconds(10)).until(() -> !store.records("alice", 10, 0).isEmpty());
        assertThat(store.records("alice", 10, 0).get(0).getReason())
                .isEqualTo("9 occurrences missed while the server was down; sent the latest, 30s late");
        ScheduledStore.Scan held = store.scanAll(clock.millis(), Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE, 10);
        assertThat(held.entries()).singleElement().satisfies(e -> {
            assertThat(e.message().getOccurrence()).isEqualTo(11);
            assertThat(e.message().getDueAtMillis()).isEqualTo(start + 11 * 60_000);
        });
        assertThat(inbox.texts()).hasSize(1);
    }

    @Test
    void recurringMessageWhoseClaimRanOutUnfinished_sendsItsClaimedOccurrenceAgain_thenTheLatest_countingNoneMissed() {
        // A node claimed occurrence 1 (and may have sent it) and died before moving the series on;
        // its lease runs out while occurrence 2 comes due. Counting occurrence 1 as missed would be
        // wrong if it was shown; sent again under its own id, a client that showed it drops it.
        long start = clock.millis() - 60_000;
        store.put("alice", message("m1", "tick", start + 60_000).toBuilder().setOccurrence(1).setSeriesStartMillis(start)
                .setTiming(Timing.newBuilder().setEvery("1m").setZone("UTC")).build());
        assertThat(store.claim("alice", "m1", clock.millis(), clock.millis() + LEASE.toMillis()))
                .isInstanceOf(ScheduledStore.Claim.Claimed.class);
        clock.advance(LEASE.plusSeconds(1));

        scheduling.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> inbox.chats().size() == 2);
        assertThat(inbox.chats()).extracting(Chat::getId).containsExactly("m1.1", "m1.2");
        assertThat(inbox.chats()).extracting(chat -> chat.getDelay().getMissed()).containsExactly(0, 0);
        await().atMost(Duration.ofSeconds(10)).until(() -> !store.records("alice", 10, 0).isEmpty());
        assertThat(store.records("alice", 10, 0)).singleElement()
                .satisfies(r -> assertThat(r.getMessage().getOccurrence()).isEqualTo(2));
        ScheduledStore.Scan held = store.scanAll(clock.millis(), Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE, 10);
        assertThat(held.entries()).singleElement()
                .satisfies(e -> assertThat(e.message().getOccurrence()).isEqualTo(3));
    }

    @Test
    void whenOnlineMessage_goesAtTheRecipientsLogin_orIsDroppedAtItsDeadline() {
        Scheduled waiting = message("m1", "welcome back", Long.MAX_VALUE).toBuilder()
                .setTiming(Timing.newBuilder().setWhenOnline(true)).build();
        store.waitFor("bob", new ScheduledStore.Ref("alice", "m1"));
        store.put("alice", waiting);
        Scheduled expiring = message("m2", "too slow", clock.millis() - 1).toBuilder().setRecipient("carl")
                .setTiming(Timing.newBuilder().setWhenOnline(true)).build();
        store.waitFor("carl", new ScheduledStore.Ref("alice", "m2"));
        store.put("alice", expiring);
        scheduling.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> !store.records("alice", 10, 0).isEmpty());
        assertThat(store.records("alice", 10, 0).get(0).getReason())
                .isEqualTo("not sent: carl did not log in by its deadline");
        assertThat(store.waiting("carl", 10)).isEmpty();
        assertThat(inbox.texts()).isEmpty();

        scheduling.loggedIn("bob");

        await().atMost(Duration.ofSeconds(10)).until(() -> inbox.texts().contains("welcome back"));
        assertThat(inbox.chats().get(0).getDelay().getWhenOnline()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> store.waiting("bob", 10).isEmpty());
        assertThat(store.count()).isZero();
        scheduling.loggedIn("bob");
        assertThat(inbox.texts()).containsExactly("welcome back");
    }

    private Scheduled message(String id, String text, long dueAtMillis) {
        return message(id, 1, text, dueAtMillis);
    }

    private Scheduled message(String id, long number, String text, long dueAtMillis) {
        return Scheduled.newBuilder().setId(id).setNumber(number).setRecipient("bob").setText(text)
                .setDueAtMillis(dueAtMillis).setRequestedMillis(1000).build();
    }
}
