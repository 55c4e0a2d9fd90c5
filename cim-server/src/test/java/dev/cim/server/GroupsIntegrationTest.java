package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimException;
import dev.cim.client.core.GroupChange;
import dev.cim.client.core.GroupInfo;
import dev.cim.client.core.GroupResult;
import dev.cim.client.core.HistoryPage;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.Recorder;
import dev.cim.client.core.SearchResult;
import dev.cim.client.core.SendReceipt;
import dev.cim.server.support.SharedServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Groups, history and search on one server over real TCP and a real Redis, through the client
 * library. Each test uses its own user and group names.
 */
class GroupsIntegrationTest {

    private static final int MAX_MEMBERS = 4;

    @RegisterExtension
    static final SharedServer shared = new SharedServer(
            "--cim.server.node-id=groups-node",
            "--cim.server.groups.max-members=" + MAX_MEMBERS,
            "--cim.server.groups.max-groups-per-user=3");

    private CimClient online(String base, Recorder recorder) {
        return shared.online(shared.name(base), recorder);
    }

    private static CimException refusal(CompletableFuture<?> future) {
        try {
            future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof CimException refused) {
                return refused;
            }
            throw e;
        }
        throw new AssertionError("expected a refusal, but it was done");
    }

    @Test
    void messageToAGroup_reachesEveryMemberOnEveryTerminal_butTheSendingOne_andIsPosted() {
        Recorder bob = new Recorder();
        Recorder carol = new Recorder();
        Recorder aliceElsewhere = new Recorder();
        Recorder aliceHere = new Recorder();
        online("bob", bob);
        online("carol", carol);
        online("alice", aliceElsewhere);
        CimClient alice = online("alice", aliceHere);
        String team = shared.name("team");
        alice.groups().create(team, false, List.of(shared.name("bob"), shared.name("carol"))).join();

        SendReceipt receipt = alice.send(Recipient.group(team), "standup in 5").join();

        assertThat(receipt.outcome()).isEqualTo(SendReceipt.Outcome.POSTED);
        ChatMessage atBob = bob.awaitText("standup in 5");
        assertThat(atBob.recipient()).isEqualTo("#" + team);
        assertThat(atBob.isToGroup()).isTrue();
        carol.awaitText("standup in 5");
        aliceElsewhere.awaitText("standup in 5");
        // A later message reaches the sending terminal the same way: the first would have been here.
        online("bob", new Recorder()).send(Recipient.group(team), "marker").join();
        aliceHere.awaitText("marker");
        assertThat(aliceHere.texts()).containsExactly("marker");
    }

    @Test
    void memberAway_getsTheGroupsMessagesAtTheNextLogin_inOrder_once() {
        CimClient bobGone = online("bob", new Recorder());
        CimClient alice = online("alice", new Recorder());
        String team = shared.name("team");
        alice.groups().create(team, false, List.of(shared.name("bob"))).join();
        bobGone.close();
        List<CompletableFuture<SendReceipt>> sent = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            sent.add(alice.send(Recipient.group(team), "g" + i));
        }
        sent.forEach(CompletableFuture::join);

        Recorder bob = new Recorder();
        online("bob", bob);
        bob.awaitMessages(150);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            expected.add("g" + i);
        }
        assertThat(bob.texts()).containsExactlyElementsOf(expected);

        // Acknowledged: a later login gets none of them again, only what came since.
        Recorder bobAgain = new Recorder();
        alice.send(Recipient.group(team), "after").join();
        await().atMost(Recorder.WAIT).until(() -> bob.texts().contains("after"));
        shared.server().closeClients(); // every client of this test, bob's included
        CimClient aliceAgain = online("alice", new Recorder());
        aliceAgain.send(Recipient.group(team), "latest").join();
        online("bob", bobAgain);
        bobAgain.awaitText("latest");
        assertThat(bobAgain.texts()).containsExactly("latest");
    }

    @Test
    void nonMember_cannotSendToTheGroup_norReadItsHistory() {
        online("bob", new Recorder());
        CimClient alice = online("alice", new Recorder());
        CimClient mallory = online("mallory", new Recorder());
        String team = shared.name("team");
        alice.groups().create(team, false, List.of(shared.name("bob"))).join();

        CimException notSent = refusal(mallory.send(Recipient.group(team), "let me in"));
        CimException noHistory = refusal(mallory.history().latest("#" + team, 10));
        CimException noSuchGroup = refusal(alice.send(Recipient.group(shared.name("nothing")), "hello?"));

        assertThat(notSent.getMessage()).contains("not a member of #" + team);
        assertThat(noHistory.getMessage()).contains("not a member of #" + team);
        assertThat(noSuchGroup.getMessage()).contains("not a member of #" + shared.name("nothing"));
    }

    @Test
    void membership_changes_areRefusedWhenNotAllowed_andToldToTheMembers() {
        Recorder bob = new Recorder();
        CimClient bobClient = online("bob", bob);
        online("carol", new Recorder());
        CimClient dave = online("dave", new Recorder());
        CimClient alice = online("alice", new Recorder());
        String team = shared.name("team");
        String open = shared.name("open");
        alice.groups().create(team, false, List.of(shared.name("bob"))).join();
        alice.groups().create(open, true, List.of()).join();

        assertThat(refusal(dave.groups().join(team)).getMessage()).contains("not open");
        assertThat(refusal(dave.groups().invite(team, List.of(shared.name("carol")))).getMessage())
                .contains("not a member");
        GroupResult joined = dave.groups().join(open).join();
        assertThat(joined.group().members()).isEqualTo(2);
        GroupResult invited = alice.groups().invite(team, List.of(shared.name("carol"), shared.name("ghost"))).join();
        assertThat(invited.group().members()).isEqualTo(3);
        assertThat(invited.refused()).singleElement().asString().contains("no user named " + shared.name("ghost"));
        GroupChange told = bob.awaitGroupChange(GroupChange.Kind.JOINED, team);
        assertThat(told.users()).containsExactly(shared.name("carol"));
        assertThat(told.by()).isEqualTo(shared.name("alice"));

        assertThat(refusal(bobClient.groups().kick(team, List.of(shared.name("carol")))).getMessage())
                .contains("only the group's owner");
        alice.groups().kick(team, List.of(shared.name("carol"))).join();
        bob.awaitGroupChange(GroupChange.Kind.REMOVED, team);
        bobClient.groups().leave(team).join();
        assertThat(alice.groups().members(team).join()).containsExactly(shared.name("alice"));
        assertThat(refusal(alice.groups().join(shared.name("nothing"))).reason()).isEqualTo(CimException.Reason.NOT_FOUND);
    }

    @Test
    void limits_fullGroup_tooManyGroups_andLookAlikeNames_areRefused() {
        CimClient alice = online("alice", new Recorder());
        List<String> three = new ArrayList<>();
        for (String base : List.of("bea", "cid", "dot")) {
            online(base, new Recorder());
            three.add(shared.name(base));
        }
        String full = shared.name("full");
        alice.groups().create(full, false, three).join();
        online("extra", new Recorder());

        assertThat(refusal(alice.groups().invite(full, List.of(shared.name("extra")))).getMessage())
                .contains("the most is " + MAX_MEMBERS);
        assertThat(refusal(alice.groups().create(full.replace('l', '1'), false, List.of())).getMessage())
                .contains("reads too much like #" + full);
        assertThat(refusal(alice.groups().create(full, false, List.of())).getMessage()).contains("exists already");
        alice.groups().create(shared.name("second"), false, List.of()).join();
        alice.groups().create(shared.name("third"), false, List.of()).join();
        assertThat(refusal(alice.groups().create(shared.name("fourth"), false, List.of())).getMessage())
                .contains("in 3 groups");
        assertThat(alice.groups().list().join()).extracting(GroupInfo::name)
                .containsExactly(full, shared.name("second"), shared.name("third"));
        assertThatThrownBy(() -> Recipient.group("bad name")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void joinsOfOneUserToManyGroupsAtOnce_stopAtTheLimitOfGroups() {
        List<String> open = new ArrayList<>();
        for (String base : List.of("own1", "own2", "own3", "own4")) {
            CimClient owner = online(base, new Recorder());
            for (String group : List.of(base + "a", base + "b")) {
                owner.groups().create(shared.name(group), true, List.of()).join();
                open.add(shared.name(group));
            }
        }
        CimClient joiner = online("joiner", new Recorder());

        // Sent together, they run on the groups' lanes at the same time.
        List<CompletableFuture<GroupResult>> joins = new ArrayList<>();
        open.forEach(group -> joins.add(joiner.groups().join(group)));
        int joined = 0;
        for (CompletableFuture<GroupResult> join : joins) {
            try {
                join.join();
                joined++;
            } catch (CompletionException e) {
                assertThat(e.getCause()).hasMessageContaining("in 3 groups");
            }
        }

        assertThat(joined).isEqualTo(3);
        assertThat(joiner.groups().list().join()).hasSize(3);
    }

    @Test
    void history_ofPrivateAndGroupConversations_pagesBack_andSinceAPosition() {
        CimClient bob = online("bob", new Recorder());
        CimClient alice = online("alice", new Recorder());
        String team = shared.name("team");
        alice.groups().create(team, false, List.of(shared.name("bob"))).join();
        for (int i = 0; i < 30; i++) {
            alice.send(Recipient.user(shared.name("bob")), "p" + i).join();
            bob.send(Recipient.group(team), "t" + i).join();
        }
        String bobName = "@" + shared.name("bob");

        // Private history is written behind the delivery: wait until it is all there.
        await().atMost(Recorder.WAIT).until(() -> alice.history().latest(bobName, 1).join().entries().stream()
                .anyMatch(e -> e.message().text().equals("p29")));
        HistoryPage last = alice.history().latest(bobName, 20).join();
        HistoryPage before = alice.history().before(bobName, last.oldest(), 20).join();
        HistoryPage group = bob.history().latest("#" + team, 5).join();
        HistoryPage since = bob.history().after("#" + team, group.entries().get(1).position(), 10).join();

        assertThat(last.entries()).extracting(e -> e.message().text()).startsWith("p10").endsWith("p29").hasSize(20);
        assertThat(last.more()).isTrue();
        assertThat(before.entries()).extracting(e -> e.message().text()).startsWith("p0").endsWith("p9").hasSize(10);
        assertThat(before.more()).isFalse();
        assertThat(group.entries()).extracting(e -> e.message().text()).containsExactly("t25", "t26", "t27", "t28", "t29");
        assertThat(since.entries()).extracting(e -> e.message().text()).containsExactly("t27", "t28", "t29");
        assertThat(bob.history().latest("@" + shared.name("alice"), 1).join().entries().get(0).message().text())
                .isEqualTo("p29");
    }

    @Test
    void search_findsWholeWords_inTheUsersOwnConversations_newestFirst_andPages() {
        CimClient bob = online("bob", new Recorder());
        CimClient carol = online("carol", new Recorder());
        CimClient alice = online("alice", new Recorder());
        String team = shared.name("team");
        alice.groups().create(team, false, List.of(shared.name("bob"))).join();
        alice.send(Recipient.user(shared.name("bob")), "Lunch at noon?").join();
        bob.send(Recipient.group(team), "lunchbox is not lunch... LUNCH!").join();
        carol.send(Recipient.user(shared.name("bob")), "secret lunch for bob and carol").join();
        alice.send(Recipient.group(team), "no food words here").join();
        for (int i = 0; i < 25; i++) {
            alice.send(Recipient.group(team), "coffee " + i).join();
        }
        await().atMost(Recorder.WAIT).until(() -> alice.history().latest("@" + shared.name("bob"), 1).join()
                .entries().size() == 1);

        SearchResult lunch = alice.history().search("lunch", "", "", 0).join();
        SearchResult inTeam = alice.history().search("LUNCH", "#" + team, "", 0).join();
        SearchResult page1 = alice.history().search("coffee", "", "", 10).join();
        SearchResult page2 = alice.history().search("coffee", "", page1.resume(), 10).join();

        assertThat(lunch.hits()).extracting(h -> h.entry().message().text())
                .containsExactly("lunchbox is not lunch... LUNCH!", "Lunch at noon?"); // not carol's and bob's
        assertThat(inTeam.hits()).extracting(SearchResult.Hit::conversation).containsExactly("#" + team);
        assertThat(page1.hits()).extracting(h -> h.entry().message().text())
                .containsExactly("coffee 24", "coffee 23", "coffee 22", "coffee 21", "coffee 20", "coffee 19",
                        "coffee 18", "coffee 17", "coffee 16", "coffee 15");
        assertThat(page2.hits()).extracting(h -> h.entry().message().text()).startsWith("coffee 14").hasSize(10);
        assertThat(refusal(alice.history().search("", "", "", 0)).getMessage()).contains("search for what");
    }

    @Test
    void scheduledMessageToAGroup_goesToItsMembersAtItsTime() {
        Recorder bob = new Recorder();
        online("bob", bob);
        CimClient alice = online("alice", new Recorder());
        String team = shared.name("team");
        alice.groups().create(team, false, List.of(shared.name("bob"))).join();

        alice.schedule(Recipient.group(team), "later, team", Duration.ofMillis(300)).join();

        ChatMessage got = bob.awaitText("later, team");
        assertThat(got.isDelayed()).isTrue();
        assertThat(got.recipient()).isEqualTo("#" + team);
    }
}
