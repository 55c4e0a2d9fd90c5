package dev.cim.server.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.server.session.LocalSessionRegistry;
import dev.cim.server.session.Session;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Routing rules, with sessions on {@code EmbeddedChannel}s and an in-memory inbox: no network, no Redis. */
class ChatRouterTest {

    private final LocalSessionRegistry sessions = new LocalSessionRegistry();
    private final Set<String> accounts = Set.of("alice", "bob", "carol", "dave");
    private final Map<String, List<ChatMessage>> inboxes = new HashMap<>();
    private final OfflineInbox inbox = new OfflineInbox() {
        @Override
        public void store(String user, ChatMessage message) {
            inboxes.computeIfAbsent(user, u -> new ArrayList<>()).add(message);
        }

        @Override
        public List<ChatMessage> drain(String user) {
            List<ChatMessage> kept = inboxes.remove(user);
            return kept == null ? List.of() : kept;
        }
    };
    private final List<String> accountLookups = new ArrayList<>();
    private final ChatRouter router = new ChatRouter(sessions, user -> {
        accountLookups.add(user);
        return accounts.contains(user);
    }, inbox, RemoteNodes.NONE);
    private final AtomicLong ids = new AtomicLong();
    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @AfterEach
    void closeChannels() {
        channels.forEach(EmbeddedChannel::finishAndReleaseAll);
    }

    private Session online(String user) {
        EmbeddedChannel channel = new EmbeddedChannel();
        channels.add(channel);
        Session session = new Session(ids.incrementAndGet(), user, channel);
        sessions.add(session);
        return session;
    }

    private static ChatMessage message(String from, String to, String text) {
        return new ChatMessage("m-" + text, from, to, text, Instant.ofEpochMilli(1000), null);
    }

    /** The chat texts written to a session's channel. */
    private static List<String> received(Session session) {
        EmbeddedChannel channel = (EmbeddedChannel) session.channel();
        List<String> texts = new ArrayList<>();
        for (Object out; (out = channel.readOutbound()) != null; ) {
            texts.add(((Envelope) out).getChat().getText());
        }
        return texts;
    }

    @Test
    void route_broadcast_goesToEverySessionButTheSendingOne() {
        Session alice = online("alice");
        Session aliceLaptop = online("alice");
        Session bob = online("bob");
        Session carol = online("carol");

        RouteOutcome outcome = router.route(alice, message("alice", ChatMessage.EVERYONE, "hi all"));

        assertThat(outcome).isEqualTo(new RouteOutcome.Delivered("m-hi all", 3, 0));
        assertThat(received(alice)).isEmpty();
        assertThat(received(aliceLaptop)).containsExactly("hi all");
        assertThat(received(bob)).containsExactly("hi all");
        assertThat(received(carol)).containsExactly("hi all");
    }

    @Test
    void routeLocally_recipientHere_deliversLikeRouteWithoutAskingAnything() {
        Session alice = online("alice");
        Session aliceLaptop = online("alice");
        Session bob = online("bob");

        assertThat(router.routeLocally(alice, message("alice", "bob", "quick")))
                .contains(new RouteOutcome.Delivered("m-quick", 1, 0));
        assertThat(router.routeLocally(alice, message("alice", ChatMessage.EVERYONE, "all")))
                .contains(new RouteOutcome.Delivered("m-all", 2, 0));

        assertThat(received(bob)).containsExactly("quick", "all");
        assertThat(received(aliceLaptop)).containsExactly("quick", "all");
        assertThat(accountLookups).isEmpty();
    }

    @Test
    void routeLocally_recipientNotHere_declinesAndSendsNothing() {
        Session alice = online("alice");
        Session aliceLaptop = online("alice");

        assertThat(router.routeLocally(alice, message("alice", "bob", "later"))).isEmpty();
        assertThat(router.routeLocally(alice, message("alice", "nobody", "who?"))).isEmpty();

        assertThat(received(aliceLaptop)).isEmpty();
        assertThat(accountLookups).isEmpty();
        assertThat(inboxes).isEmpty();
    }

    @Test
    void routeLocally_otherNodesAlive_declines() {
        Session alice = online("alice");
        Session bob = online("bob");
        RemoteNodes oneOther = new RemoteNodes() {
            @Override
            public int peers() {
                return 1;
            }

            @Override
            public Set<String> hosting(String user) {
                return Set.of();
            }

            @Override
            public void send(String node, ChatMessage message) {
            }

            @Override
            public void broadcast(ChatMessage message) {
            }
        };
        ChatRouter clustered = new ChatRouter(sessions, accounts::contains, inbox, oneOther);

        assertThat(clustered.routeLocally(alice, message("alice", ChatMessage.EVERYONE, "all"))).isEmpty();
        assertThat(received(bob)).isEmpty();
    }

    @Test
    void route_broadcastWithNobodyElseOnline_isDeliveredToNoSession() {
        Session alice = online("alice");

        assertThat(router.route(alice, message("alice", ChatMessage.EVERYONE, "anyone?")))
                .isEqualTo(new RouteOutcome.Delivered("m-anyone?", 0, 0));
    }

    @Test
    void route_private_goesToTheRecipientsSessionsAndTheSendersOthers_withoutAskingRedis() {
        Session alice = online("alice");
        Session aliceLaptop = online("alice");
        Session bob = online("bob");
        Session bobPhone = online("bob");
        Session carol = online("carol");

        RouteOutcome outcome = router.route(alice, message("alice", "bob", "psst"));

        assertThat(outcome).isEqualTo(new RouteOutcome.Delivered("m-psst", 2, 0));
        assertThat(received(bob)).containsExactly("psst");
        assertThat(received(bobPhone)).containsExactly("psst");
        assertThat(received(aliceLaptop)).containsExactly("psst");
        assertThat(received(alice)).isEmpty();
        assertThat(received(carol)).isEmpty();
        assertThat(accountLookups).as("no account lookup for a user online here").isEmpty();
    }

    @Test
    void route_privateToAKnownOfflineUser_isStoredInOrder() {
        Session alice = online("alice");

        RouteOutcome first = router.route(alice, message("alice", "dave", "one"));
        router.route(alice, message("alice", "dave", "two"));

        assertThat(first).isEqualTo(new RouteOutcome.StoredOffline("m-one", "dave"));
        assertThat(inboxes.get("dave")).extracting(ChatMessage::text).containsExactly("one", "two");
    }

    @Test
    void route_privateToAnUnknownUser_isNotSentAnywhere() {
        Session alice = online("alice");
        Session aliceLaptop = online("alice");

        RouteOutcome outcome = router.route(alice, message("alice", "zed", "hello?"));

        assertThat(outcome).isEqualTo(new RouteOutcome.UnknownRecipient("zed"));
        assertThat(inboxes).isEmpty();
        assertThat(received(aliceLaptop)).isEmpty();
    }

    @Test
    void route_privateToOneself_reachesOnlyTheOtherTerminals() {
        Session alice = online("alice");
        Session aliceLaptop = online("alice");

        RouteOutcome outcome = router.route(alice, message("alice", "alice", "note to self"));

        assertThat(outcome).isEqualTo(new RouteOutcome.Delivered("m-note to self", 1, 0));
        assertThat(received(aliceLaptop)).containsExactly("note to self");
        assertThat(received(alice)).isEmpty();
    }

    /** Another node, n2, on which bob is online. */
    private final List<String> relayed = new CopyOnWriteArrayList<>();
    private final RemoteNodes otherNode = new RemoteNodes() {
        @Override
        public int peers() {
            return 1;
        }

        @Override
        public Set<String> hosting(String user) {
            return user.equals("bob") ? Set.of("n2") : Set.of();
        }

        @Override
        public void send(String node, ChatMessage message) {
            relayed.add(node + ":" + message.text());
        }

        @Override
        public void broadcast(ChatMessage message) {
            relayed.add("all:" + message.text());
        }
    };
    private final ChatRouter twoNodeRouter = new ChatRouter(sessions, accounts::contains, inbox, otherNode);

    @Test
    void route_privateToAUserOnAnotherNode_isRelayedThere_notStored() {
        Session alice = online("alice");

        RouteOutcome outcome = twoNodeRouter.route(alice, message("alice", "bob", "over there"));

        assertThat(outcome).isEqualTo(new RouteOutcome.Delivered("m-over there", 0, 1));
        assertThat(relayed).containsExactly("n2:over there");
        assertThat(inboxes).isEmpty();
    }

    @Test
    void route_privateToAUserHereAndOnAnotherNode_reachesBoth() {
        Session alice = online("alice");
        Session bob = online("bob");

        RouteOutcome outcome = twoNodeRouter.route(alice, message("alice", "bob", "both"));

        assertThat(outcome).isEqualTo(new RouteOutcome.Delivered("m-both", 1, 1));
        assertThat(received(bob)).containsExactly("both");
        assertThat(relayed).containsExactly("n2:both");
    }

    @Test
    void route_broadcastWithPeers_isDeliveredHereAndRelayedOnce() {
        Session alice = online("alice");
        Session carol = online("carol");

        RouteOutcome outcome = twoNodeRouter.route(alice, message("alice", ChatMessage.EVERYONE, "all nodes"));

        assertThat(outcome).isEqualTo(new RouteOutcome.Delivered("m-all nodes", 1, 1));
        assertThat(received(carol)).containsExactly("all nodes");
        assertThat(relayed).containsExactly("all:all nodes");
    }

    @Test
    void route_privateToAnOfflineUserWithPeers_isStoredWhenNoNodeHoldsThem() {
        Session alice = online("alice");

        RouteOutcome outcome = twoNodeRouter.route(alice, message("alice", "dave", "later"));

        assertThat(outcome).isEqualTo(new RouteOutcome.StoredOffline("m-later", "dave"));
        assertThat(relayed).isEmpty();
    }
}
