package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.ConnectionEvent;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.Recorder;
import dev.cim.client.core.ScheduledChange;
import dev.cim.client.core.ScheduledMessage;
import dev.cim.client.core.SendReceipt;
import dev.cim.server.chat.ChatCore;
import dev.cim.server.net.CimServer;
import dev.cim.server.redis.embedded.EmbeddedRedisServer;
import dev.cim.testkit.Ports;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import dev.cim.server.support.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two server nodes on one Redis: users on different nodes chat as if on one. */
class TwoNodeIntegrationTest {

    @TempDir
    Path dataDir;

    private final int redisPort = Ports.free();
    private EmbeddedRedisServer redis;
    private TestServer a;
    private TestServer b;

    @BeforeEach
    void start() {
        redis = new EmbeddedRedisServer(redisPort, dataDir, "everysec");
        redis.start();
        a = TestServer.onRedis(redis, "--cim.server.node-id=node-a", "--cim.server.presence.refresh-interval=200ms",
                "--cim.server.presence.ttl=3s", "--cim.server.shutdown.grace=3s", "--cim.server.shutdown.spread=200ms");
        b = TestServer.onRedis(redis, "--cim.server.node-id=node-b", "--cim.server.presence.refresh-interval=200ms",
                "--cim.server.presence.ttl=3s");
        // Each node learns of the other at its next heartbeat.
        await("the nodes see each other").atMost(Recorder.WAIT).until(() ->
                a.bean(ChatCore.class).peers() == 1 && b.bean(ChatCore.class).peers() == 1);
    }

    @AfterEach
    void stop() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        redis.close();
    }

    private static CimClient online(TestServer server, String user, Recorder recorder) {
        CimClient client = server.client(user, recorder);
        client.connect().join();
        return client;
    }

    @Test
    void groupMessages_reachMembersOnBothNodes_inEachSendersOrder_andChangesAreToldAcrossNodes() {
        Recorder bob = new Recorder();
        Recorder carol = new Recorder();
        CimClient bobClient = online(b, "gbob", bob);
        online(a, "gcarol", carol);
        CimClient alice = online(a, "galice", new Recorder());
        alice.groups().create("crew", false, List.of("gbob", "gcarol")).join();
        online(b, "gdave", new Recorder()).close(); // an account, away

        List<CompletableFuture<SendReceipt>> sent = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            sent.add(alice.send(Recipient.group("crew"), "a" + i));
            sent.add(bobClient.send(Recipient.group("crew"), "b" + i));
        }
        sent.forEach(CompletableFuture::join);
        alice.groups().invite("crew", List.of("gdave")).join();

        await().atMost(Recorder.WAIT).until(() -> carol.texts().size() == 200 && bob.texts().size() == 100);
        List<String> fromAliceAtBob = bob.texts().stream().filter(t -> t.startsWith("a")).toList();
        List<String> fromBobAtCarol = carol.texts().stream().filter(t -> t.startsWith("b")).toList();
        assertThat(fromAliceAtBob).containsExactlyElementsOf(IntStream.range(0, 100).mapToObj(i -> "a" + i).toList());
        assertThat(fromBobAtCarol).containsExactlyElementsOf(IntStream.range(0, 100).mapToObj(i -> "b" + i).toList());
        assertThat(bob.awaitGroupChange(dev.cim.client.core.GroupChange.Kind.JOINED, "crew").users())
                .containsExactly("gdave");
        Recorder dave = new Recorder();
        online(a, "gdave", dave);
        bobClient.send(Recipient.group("crew"), "welcome").join();
        dave.awaitText("welcome");
        assertThat(dave.texts()).as("what came before the invitation is not the new member's").containsExactly("welcome");
    }

    @Test
    void privateMessage_toAUserOnTheOtherNode_isDeliveredInOrder_andTheReceiptWaitsForTheirAcknowledgement() {
        Recorder bob = new Recorder();
        online(b, "bob", bob);
        CimClient alice = online(a, "alice", new Recorder());

        List<CompletableFuture<SendReceipt>> sent = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            sent.add(alice.send(Recipient.user("bob"), "m" + i));
        }

        sent.forEach(f -> {
            SendReceipt receipt = f.join();
            assertThat(receipt.outcome()).isEqualTo(SendReceipt.Outcome.DELIVERED);
            assertThat(receipt.sessions()).isEqualTo(1);
        });
        bob.awaitMessages(200);
        assertThat(bob.texts()).containsExactlyElementsOf(IntStream.range(0, 200).mapToObj(i -> "m" + i).toList());
    }

    @Test
    void broadcast_reachesUsersOnBothNodes() {
        Recorder bob = new Recorder();
        Recorder carol = new Recorder();
        online(b, "bob", bob);
        online(a, "carol", carol);
        CimClient alice = online(a, "alice", new Recorder());

        SendReceipt receipt = alice.send(Recipient.EVERYONE, "hello both nodes").join();

        bob.awaitText("hello both nodes");
        carol.awaitText("hello both nodes");
        assertThat(receipt.sessions()).isEqualTo(2);
    }

    @Test
    void offlineUser_storedByOneNode_isDeliveredByTheOther() {
        online(b, "bob", new Recorder()).close();
        CimClient alice = online(a, "alice", new Recorder());
        assertThat(alice.send(Recipient.user("bob"), "waiting").join().outcome()).isEqualTo(SendReceipt.Outcome.STORED);

        Recorder bob = new Recorder();
        online(b, "bob", bob);

        bob.awaitText("waiting");
    }

    @Test
    void scheduledMessage_changedOnOneNode_isToldToTheUsersTerminalOnTheOther() {
        Recorder onB = new Recorder();
        online(b, "alice", onB);
        CimClient onA = online(a, "alice", new Recorder());
        online(b, "bob", new Recorder());

        ScheduledMessage scheduled = onA.schedule(Recipient.user("bob"), "later", Duration.ofHours(2)).join();
        onB.awaitChange(ScheduledChange.Kind.SCHEDULED);
        onA.cancel(scheduled.id()).join();

        assertThat(onB.awaitChange(ScheduledChange.Kind.CANCELLED).message().id()).isEqualTo(scheduled.id());
    }

    @Test
    void scheduledMessagesDueTogether_withASenderOnEachNode_areEachDeliveredOnce() {
        Recorder bob = new Recorder();
        online(a, "bob", bob);
        CimClient senderA = online(a, "sender-a", new Recorder());
        CimClient senderB = online(b, "sender-b", new Recorder());
        java.time.Instant due = java.time.Instant.now().plusSeconds(3);
        List<CompletableFuture<ScheduledMessage>> scheduled = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            scheduled.add((i % 2 == 0 ? senderA : senderB).schedule(Recipient.user("bob"), "due " + i, due));
        }
        scheduled.forEach(CompletableFuture::join);

        bob.awaitMessages(200);
        // Every send is counted where it happens: the two nodes sent 200 in all, not one more.
        await("both nodes have counted their sends").atMost(Recorder.WAIT).until(() -> sent(a) + sent(b) >= 200);
        assertThat(sent(a) + sent(b)).isEqualTo(200);
        assertThat(bob.texts()).hasSize(200).doesNotHaveDuplicates();
        assertThat(bob.messages).allSatisfy(m -> assertThat(m.sentAt()).isAfterOrEqualTo(due));
    }

    /** Scheduled messages {@code server} sent, by the sender's release or by itself. */
    private static long sent(TestServer server) {
        return server.bean(MeterRegistry.class).find("cim.scheduled.lateness").timers().stream()
                .mapToLong(Timer::count).sum();
    }

    @Test
    void stoppingANode_sendsItsClientsToTheOther_andNothingSentIsLost() {
        Recorder bob = new Recorder();
        online(b, "bob", bob);
        Recorder aliceEvents = new Recorder();
        // Only node-a's address: node-b is learnt from the GoAway.
        CimClient alice = a.client(a.address(), "alice", aliceEvents);
        alice.connect().join();
        assertThat(aliceEvents.awaitEvent(ConnectionEvent.Connected.class).nodeId()).isEqualTo("node-a");

        a.context().close(); // the node stops; its clients are the test's, and stay
        a = null;

        aliceEvents.awaitEvent(ConnectionEvent.GoingAway.class);
        await("alice logs in on node-b").atMost(Recorder.WAIT).until(() -> aliceEvents.events.stream()
                .anyMatch(e -> e instanceof ConnectionEvent.Connected c && c.nodeId().equals("node-b")));
        alice.send(Recipient.user("bob"), "after the move").join();
        bob.awaitText("after the move");
    }

    @Test
    void aFullNode_sendsANewLoginToTheOtherNode_andTakesOneAgainOnceAPlaceIsFree() {
        TestServer full = TestServer.onRedis(redis, "--cim.server.node-id=node-full",
                "--cim.server.limits.max-connections=1");
        try {
            await("node-full sees the others").atMost(Recorder.WAIT)
                    .until(() -> full.bean(ChatCore.class).peers() == 2);
            Recorder carolEvents = new Recorder();
            CimClient carol = full.client(full.address(), "carol", carolEvents);
            carol.connect().join();
            assertThat(carolEvents.awaitEvent(ConnectionEvent.Connected.class).nodeId()).isEqualTo("node-full");
            await("node-a hears at a heartbeat that node-full is full").atMost(Recorder.WAIT).until(() ->
                    !a.bean(ChatCore.class).otherNodesWithRoom().contains(full.address())
                            && a.bean(ChatCore.class).otherNodesWithRoom().contains(b.address()));

            // Only node-full's address: the others are learnt from its GoAway.
            Recorder daveEvents = new Recorder();
            CimClient dave = full.client(full.address(), "dave", daveEvents);
            dave.connect().join();
            assertThat(daveEvents.awaitEvent(ConnectionEvent.GoingAway.class).reason())
                    .isEqualTo("the server node node-full is full (1 connections, cim.server.limits.max-connections)");
            assertThat(daveEvents.awaitEvent(ConnectionEvent.Connected.class).nodeId()).isIn("node-a", "node-b");
            dave.send(Recipient.user("carol"), "from elsewhere").join();
            carolEvents.awaitText("from elsewhere");

            carol.close();
            await("carol's place is free").atMost(Recorder.WAIT)
                    .until(() -> full.bean(CimServer.class).loggedInConnections() == 0);
            Recorder erinEvents = new Recorder();
            full.client(full.address(), "erin", erinEvents).connect().join();
            assertThat(erinEvents.awaitEvent(ConnectionEvent.Connected.class).nodeId()).isEqualTo("node-full");
        } finally {
            full.close();
        }
    }
}
