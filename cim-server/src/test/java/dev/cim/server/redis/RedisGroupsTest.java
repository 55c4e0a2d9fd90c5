package dev.cim.server.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.server.store.Conversation;
import dev.cim.server.store.ConversationLog;
import dev.cim.server.store.GroupStore;
import dev.cim.server.store.LogPosition;
import dev.cim.server.support.RedisFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Groups and conversation logs, their scripts on a real Redis. Each test uses its own names. */
class RedisGroupsTest {

    @RegisterExtension
    static final RedisFixture redis = RedisFixture.standaloneOrCluster();

    private static final AtomicInteger names = new AtomicInteger();
    // The logs are trimmed by position, which Redis stamps with its own clock: the test runs on the real one.
    private static final long NOW = System.currentTimeMillis();

    private final GroupStore groups = new RedisGroupStore(redis.bytes());
    private final ConversationLog logs = new RedisConversationLog(redis.bytes());

    private static String name(String base) {
        return base + names.incrementAndGet();
    }

    private static Chat chat(String from, String to, String text, long at) {
        return Chat.newBuilder().setId("00000000000000a1-" + names.incrementAndGet()).setSender(from)
                .setRecipient(to).setText(text).setSentAtMillis(at).build();
    }

    private GroupStore.Post post(String group, String from, String text) {
        GroupStore.Posting posting = groups.post(group, chat(from, "#" + group, text, NOW), NOW, Duration.ofDays(30),
                1_000_000);
        assertThat(posting).isInstanceOf(GroupStore.Posting.Posted.class);
        return ((GroupStore.Posting.Posted) posting).post();
    }

    @Test
    void create_addsOwnerAndMembers_andIndexesEach_andANameOrItsLookAlikeIsTakenOnce() {
        String team = name("team");
        GroupStore.Creation made = groups.create(team, team, "alice", false, List.of("bob"), NOW);

        assertThat(made).isInstanceOf(GroupStore.Creation.Created.class);
        GroupStore.Info info = ((GroupStore.Creation.Created) made).group();
        assertThat(info.owner()).isEqualTo("alice");
        assertThat(info.members()).isEqualTo(2);
        assertThat(groups.members(team)).contains(List.of("alice", "bob"));
        assertThat(groups.groupsOf("bob")).contains(team);
        assertThat(groups.create(team, team, "carol", true, List.of(), NOW))
                .isEqualTo(new GroupStore.Creation.Taken(team));
        assertThat(groups.create(team + "x", team, "carol", true, List.of(), NOW))
                .isEqualTo(new GroupStore.Creation.Taken(team));
    }

    @Test
    void add_byANonMember_ofAClosedGroup_isRefused_andJoiningAnOpenOne_isAllowed_upToTheLimit() {
        String closed = name("closed");
        String open = name("open");
        groups.create(closed, closed, "alice", false, List.of(), NOW);
        groups.create(open, open, "alice", true, List.of(), NOW);

        assertThat(groups.add(closed, "mallory", List.of("mallory"), 10)).isInstanceOf(GroupStore.Change.Refused.class);
        assertThat(groups.groupsOf("mallory")).doesNotContain(closed);
        assertThat(groups.add(open, "dave", List.of("dave", "eve"), 10)).isInstanceOf(GroupStore.Change.Refused.class);
        GroupStore.Change joined = groups.add(open, "dave", List.of("dave"), 10);
        assertThat(joined).isInstanceOf(GroupStore.Change.Done.class);
        assertThat(((GroupStore.Change.Done) joined).changed()).containsExactly("dave");
        GroupStore.Change over = groups.add(open, "alice", List.of("f1", "f2"), 3);
        assertThat(over).isEqualTo(new GroupStore.Change.Refused("the group has 2 members; the most is 3"));
        assertThat(groups.add(name("none"), "alice", List.of("bob"), 10)).isInstanceOf(GroupStore.Change.NoGroup.class);
    }

    @Test
    void reserve_countsTheGroupsAUserIsIn_andTheirJoinsUnderWay_andAJoinGivesItsPlaceBack() {
        String user = name("u");
        String[] g = {name("g"), name("g"), name("g"), name("g")};
        for (String group : g) {
            groups.create(group, group, "owner-" + group, true, List.of(), NOW);
        }
        groups.add(g[0], user, List.of(user), 10);

        assertThat(groups.reserve(user, g[1], 3)).isTrue();
        assertThat(groups.reserve(user, g[2], 3)).isTrue();
        assertThat(groups.reserve(user, g[3], 3)).as("1 group and 2 joins under way").isFalse();
        assertThat(groups.reserve(user, g[0], 3)).as("a group they are in").isTrue();
        assertThat(groups.reserve(user, g[1], 3)).as("a join under way, again").isTrue();
        assertThat(groups.add(g[1], user, List.of(user), 10)).isInstanceOf(GroupStore.Change.Done.class);
        assertThat(groups.reserve(user, g[3], 3)).as("2 groups and 1 join").isFalse();
        groups.release(user, g[2]);
        assertThat(groups.reserve(user, g[3], 3)).isTrue();
        assertThat(groups.add(g[3], user, List.of(user), 10)).isInstanceOf(GroupStore.Change.Done.class);
        assertThat(groups.reserve(user, g[2], 3)).isFalse();
        assertThat(groups.add(name("none"), user, List.of(user), 10)).isInstanceOf(GroupStore.Change.NoGroup.class);
        assertThat(groups.groupsOf(user)).containsExactlyInAnyOrder(g[0], g[1], g[3]);
    }

    @Test
    void reserve_ofAFullUser_forgetsGroupsTheirSetNamesButTheyAreNotIn() {
        String user = name("u");
        String in = name("in");
        groups.create(in, in, user, false, List.of(), NOW);
        // Left by a process that died between the user's set and the group's script.
        redis.bytes().opsForSet().add(RedisKeys.groupsOf(user), RedisBytes.of(name("gone")));

        assertThat(groups.reserve(user, name("next"), 2)).isTrue();
        assertThat(groups.groupsOf(user)).containsExactly(in);
    }

    @Test
    void joinsOfOneUserToManyGroupsAtOnce_passTheLimitOfGroupsNeverTogether() throws Exception {
        List<String> open = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            String group = name("open");
            groups.create(group, group, "owner-" + group, true, List.of(), NOW);
            open.add(group);
        }
        ExecutorService lanes = Executors.newFixedThreadPool(8);
        try {
            // Many times over: the refused joins clear the user's set while the others end.
            for (int attempt = 0; attempt < 40; attempt++) {
                String user = name("u");
                List<Future<Boolean>> joins = new ArrayList<>();
                for (String group : open) {
                    joins.add(lanes.submit(() -> groups.reserve(user, group, 3)
                            && groups.add(group, user, List.of(user), 1000) instanceof GroupStore.Change.Done));
                }
                long joined = 0;
                for (Future<Boolean> join : joins) {
                    joined += join.get(30, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(joined).as("joins of %s", user).isEqualTo(3);
                assertThat(open.stream().filter(group -> groups.isMember(group, user)).count()).isEqualTo(3);
                assertThat(groups.groupsOf(user)).hasSize(3);
            }
        } finally {
            lanes.shutdownNow();
        }
    }

    @Test
    void remove_ofTheOwner_handsTheGroupToTheEarliestMember_andTheLastEndsIt_freeingItsName() {
        String team = name("team");
        groups.create(team, team, "alice", false, List.of("bob", "carol"), NOW);
        post(team, "alice", "hello");

        assertThat(groups.remove(team, "bob", List.of("carol"))).isInstanceOf(GroupStore.Change.Refused.class);
        GroupStore.Change left = groups.remove(team, "alice", List.of("alice"));
        assertThat(((GroupStore.Change.Done) left).group().owner()).isEqualTo("bob");
        assertThat(groups.groupsOf("alice")).doesNotContain(team);
        groups.remove(team, "bob", List.of("carol"));
        GroupStore.Change last = groups.remove(team, "bob", List.of("bob"));

        assertThat(((GroupStore.Change.Done) last).group().members()).isZero();
        assertThat(groups.info(team)).isEmpty();
        assertThat(logs.before(Conversation.group(team), "", 10)).isEmpty();
        assertThat(groups.create(team, team, "zoe", false, List.of(), NOW)).isInstanceOf(GroupStore.Creation.Created.class);
    }

    @Test
    void post_byAMember_isLoggedInOrder_withItsPreviousPosition_andByAnyoneElse_isNot() {
        String team = name("team");
        groups.create(team, team, "alice", false, List.of("bob"), NOW);

        GroupStore.Post first = post(team, "alice", "one");
        GroupStore.Post second = post(team, "bob", "two");

        assertThat(first.previous()).isEmpty();
        assertThat(second.previous()).isEqualTo(first.position());
        assertThat(LogPosition.compare(second.position(), first.position())).isPositive();
        assertThat(groups.post(team, chat("mallory", "#" + team, "no", NOW), NOW, Duration.ofDays(1), 100))
                .isInstanceOf(GroupStore.Posting.NotMember.class);
        assertThat(logs.after(Conversation.group(team), "", 10)).extracting(e -> e.chat().getText())
                .containsExactly("one", "two");
        assertThat(groups.last(team)).contains(second.position());
    }

    @Test
    void cursors_moveForwardOnly_andOnlyForMembers_andANewMemberStartsAtTheEnd() {
        String team = name("team");
        groups.create(team, team, "alice", false, List.of("bob"), NOW);
        GroupStore.Post one = post(team, "alice", "one");
        GroupStore.Post two = post(team, "alice", "two");

        groups.advance(team, Map.of("bob", two.position(), "mallory", two.position()));
        groups.advance(team, Map.of("bob", one.position()));
        groups.add(team, "alice", List.of("carol"), 10);

        assertThat(groups.cursor(team, "bob")).contains(two.position());
        assertThat(groups.cursor(team, "mallory")).isEmpty();
        assertThat(groups.cursor(team, "carol")).contains(two.position());
    }

    @Test
    void privateLogs_areOnePerPair_pagedFromEitherEnd_andIndexedForBothUsers() {
        String alice = name("alice");
        String bob = name("bob");
        List<Chat> chats = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            chats.add(i % 2 == 0 ? chat(alice, bob, "m" + i, NOW + i) : chat(bob, alice, "m" + i, NOW + i));
        }

        logs.append(chats, NOW + 10, Duration.ofDays(30), 1000);

        Conversation pair = Conversation.between(bob, alice);
        List<ConversationLog.Entry> newest = logs.before(pair, "", 3);
        assertThat(newest).extracting(e -> e.chat().getText()).containsExactly("m9", "m8", "m7");
        assertThat(logs.before(pair, newest.get(2).position(), 100)).hasSize(7);
        assertThat(logs.after(pair, newest.get(1).position(), 10)).extracting(e -> e.chat().getText())
                .containsExactly("m9");
        assertThat(logs.recent(alice, NOW, 10)).extracting(ConversationLog.Recent::conversation).containsExactly(pair);
        assertThat(logs.recent(bob, NOW, 10)).extracting(ConversationLog.Recent::lastMillis).containsExactly(NOW + 9);
    }

    @Test
    void aPrivateMessage_isPlacedAtItsSentTime_orAtNowWhenItsLogHoldsALaterOne() {
        String alice = name("alice");
        String bob = name("bob");

        logs.append(List.of(chat(alice, bob, "sent 5 s ago", NOW - 5_000)), NOW, Duration.ofDays(30), 1000);
        logs.append(List.of(chat(bob, alice, "sent 9 s ago, written later", NOW - 9_000)), NOW, Duration.ofDays(30), 1000);

        List<ConversationLog.Entry> entries = logs.after(Conversation.between(alice, bob), "", 10);
        assertThat(entries).extracting(e -> e.chat().getText())
                .containsExactly("sent 5 s ago", "sent 9 s ago, written later");
        assertThat(entries.get(0).position()).startsWith((NOW - 5_000) + "-");
        assertThat(Long.parseLong(entries.get(1).position().split("-")[0])).as("Redis's time of the write")
                .isGreaterThanOrEqualTo(NOW);
    }

    @Test
    void privateLogs_ofManyConversationsInOneBatch_eachHoldItsOwnInOrder_andEachUserIndexesTheirs() {
        String alice = name("alice");
        String bob = name("bob");
        String carol = name("carol");
        List<Chat> chats = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            switch (i % 3) {
                case 0 -> chats.add(chat(alice, bob, "ab" + i, NOW + i));
                case 1 -> chats.add(chat(carol, alice, "ca" + i, NOW + i));
                default -> chats.add(chat(bob, carol, "bc" + i, NOW + i));
            }
        }

        logs.append(chats, NOW + 30, Duration.ofDays(30), 1000);

        assertThat(logs.after(Conversation.between(alice, bob), "", 100)).extracting(e -> e.chat().getText())
                .containsExactly("ab0", "ab3", "ab6", "ab9", "ab12", "ab15", "ab18", "ab21", "ab24", "ab27");
        assertThat(logs.after(Conversation.between(carol, alice), "", 100)).hasSize(10)
                .allSatisfy(e -> assertThat(e.chat().getText()).startsWith("ca"));
        assertThat(logs.after(Conversation.between(bob, carol), "", 100)).hasSize(10)
                .allSatisfy(e -> assertThat(e.chat().getText()).startsWith("bc"));
        assertThat(logs.recent(alice, NOW, 10)).containsExactly(
                new ConversationLog.Recent(Conversation.between(alice, carol), NOW + 28),
                new ConversationLog.Recent(Conversation.between(alice, bob), NOW + 27));
        assertThat(logs.recent(carol, NOW, 10)).containsExactly(
                new ConversationLog.Recent(Conversation.between(bob, carol), NOW + 29),
                new ConversationLog.Recent(Conversation.between(alice, carol), NOW + 28));
    }

    @Test
    void userIndex_dropsConversationsPastTheRetention_whenRefreshed_oncePerWindow() {
        String alice = name("alice");
        String bob = name("bob");
        String carol = name("carol");
        Duration retention = Duration.ofMinutes(1);
        logs.append(List.of(chat(alice, bob, "old", NOW - 10_000)), NOW, retention, 1000);
        assertThat(logs.recent(alice, 0, 10)).extracting(ConversationLog.Recent::conversation)
                .containsExactly(Conversation.between(alice, bob));

        // Within the window the index is fresh: nothing leaves it.
        logs.append(List.of(chat(carol, alice, "new", NOW + 55_000)), NOW + 55_000, retention, 1000);
        assertThat(logs.recent(alice, 0, 10)).hasSize(2);

        // Past it, at the next touch (the entry for carol is fresh for a window too): the conversation
        // with bob (10 s before NOW) is past the minute, the one with carol is not.
        long later = NOW + 55_000 + RedisConversationLog.FRESH_MILLIS + 5_000;
        logs.append(List.of(chat(carol, alice, "newer", later)), later, retention, 1000);

        assertThat(logs.recent(alice, 0, 10)).extracting(ConversationLog.Recent::conversation)
                .containsExactly(Conversation.between(alice, carol));
        assertThat(logs.recent(bob, 0, 10)).extracting(ConversationLog.Recent::conversation)
                .as("bob's index had nothing new join it").containsExactly(Conversation.between(alice, bob));
    }

    @Test
    void whatOnlyKeepsALogFresh_isWrittenOncePerWindow_theMessagesEachTime() {
        String alice = name("alice");
        String bob = name("bob");
        Conversation pair = Conversation.between(alice, bob);
        Duration retention = Duration.ofDays(30);
        long window = RedisConversationLog.FRESH_MILLIS;

        logs.append(List.of(chat(alice, bob, "first", NOW)), NOW, retention, 1000);
        logs.append(List.of(chat(bob, alice, "within the window", NOW + 10_000)), NOW + 10_000, retention, 1000);

        assertThat(logs.after(pair, "", 10)).extracting(e -> e.chat().getText())
                .containsExactly("first", "within the window");
        assertThat(logs.recent(alice, 0, 10)).as("the index entry is fresh for a window: not written again")
                .containsExactly(new ConversationLog.Recent(pair, NOW));
        assertThat(redis.bytes().getExpire(RedisKeys.log(pair), TimeUnit.MILLISECONDS))
                .as("the log lives its retention and a window after the write that set it")
                .isBetween(retention.toMillis() + window - 60_000, retention.toMillis() + window);

        logs.append(List.of(chat(alice, bob, "after it", NOW + window + 1000)), NOW + window + 1000, retention, 1000);

        assertThat(logs.recent(bob, 0, 10)).containsExactly(new ConversationLog.Recent(pair, NOW + window + 1000));
        assertThat(logs.after(pair, "", 10)).hasSize(3);
    }

    @Test
    void search_matchesWholeWordsOfTheText_only_caseFolded_newestFirst_andResumesWhereItStopped() {
        String alice = name("alice");
        String lunch = name("lunch"); // a name holding the word: the sender's name is not searched
        List<Chat> chats = List.of(
                chat(lunch, alice, "Lunch at noon?", NOW),
                chat(alice, lunch, "lunchbox", NOW + 1),
                chat(lunch, alice, "no", NOW + 2),
                chat(alice, lunch, "ok, LUNCH it is (lunch!)", NOW + 3),
                chat(alice, lunch, "multi\nline lunch\ttime", NOW + 4));
        logs.append(chats, NOW + 5, Duration.ofDays(30), 1000);
        Conversation pair = Conversation.between(alice, lunch);

        ConversationLog.Found all = logs.search(pair, "", List.of("lunch"), 100, 100);
        ConversationLog.Found two = logs.search(pair, "", List.of("lunch"), 100, 2);
        ConversationLog.Found rest = logs.search(pair, two.stoppedAt(), List.of("lunch"), 100, 100);
        ConversationLog.Found both = logs.search(pair, "", List.of("lunch", "noon"), 100, 100);
        ConversationLog.Found bounded = logs.search(pair, "", List.of("lunch"), 2, 100);

        assertThat(all.hits()).extracting(e -> e.chat().getText())
                .containsExactly("multi\nline lunch\ttime", "ok, LUNCH it is (lunch!)", "Lunch at noon?");
        assertThat(all.stoppedAt()).isEmpty();
        assertThat(two.hits()).hasSize(2);
        assertThat(rest.hits()).extracting(e -> e.chat().getText()).containsExactly("Lunch at noon?");
        assertThat(both.hits()).extracting(e -> e.chat().getText()).containsExactly("Lunch at noon?");
        assertThat(bounded.hits()).hasSize(2);
        assertThat(bounded.stoppedAt()).isNotEmpty();
        assertThat(bounded.stoppedAtMillis()).isGreaterThan(0);
    }

    @Test
    void logs_areTrimmedToTheirSize() {
        String alice = name("alice");
        String bob = name("bob");
        List<Chat> chats = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            chats.add(chat(alice, bob, "m" + i, NOW));
        }
        logs.append(chats, NOW, Duration.ofDays(30), 100);

        // XTRIM ~ trims whole nodes: at least the limit stays, far fewer than all.
        int kept = logs.after(Conversation.between(alice, bob), "", 1000).size();
        assertThat(kept).isBetween(100, 300);
    }
}
