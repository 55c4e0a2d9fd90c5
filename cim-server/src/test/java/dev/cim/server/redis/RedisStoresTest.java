package dev.cim.server.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.ScheduledChange;
import dev.cim.common.protocol.proto.SentRecord;
import dev.cim.common.protocol.proto.Timing;
import dev.cim.server.account.SessionTokens;
import dev.cim.server.store.AccountStore;
import dev.cim.server.store.AttemptCounters;
import dev.cim.server.store.InboxStore;
import dev.cim.server.store.ScheduledStore;
import dev.cim.server.support.MutableClock;
import dev.cim.server.support.RedisFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The Redis stores and their scripts, on a real Redis. Each test uses its own user names. */
class RedisStoresTest {

    @RegisterExtension
    static final RedisFixture redis = RedisFixture.standaloneOrCluster();

    private static RedisTemplate<String, byte[]> bytes;
    private static StringRedisTemplate strings;
    private static final AtomicLong clock = new AtomicLong(1_800_000_000_000L);

    @BeforeAll
    static void templates() {
        bytes = redis.bytes();
        strings = redis.strings();
    }

    private static Chat chat(String text) {
        return Chat.newBuilder().setId("00000000000000a1-1").setSender("alice").setRecipient("bob").setText(text).build();
    }

    private InboxStore inbox(int maxMessages, long maxBytes) {
        return new RedisInboxStore(bytes, clock::get, maxMessages, maxBytes, Duration.ofDays(1));
    }

    @Test
    void storeIfOffline_unknownUser_isRefused_andAUserOnline_isNotStored() {
        InboxStore inbox = inbox(100, 1 << 20);
        assertThat(inbox.storeIfOffline("ghost", chat("hi"))).isInstanceOf(InboxStore.Offer.Unknown.class);

        new RedisAccountStore(strings, bytes).create("dora", "dora", "hash");
        new RedisPresenceStore(strings, "node-x", Duration.ofSeconds(30), Duration.ofSeconds(4), clock::get).sessions("dora", 1);
        assertThat(inbox.storeIfOffline("dora", chat("hi"))).isEqualTo(new InboxStore.Offer.Online(java.util.Set.of("node-x")));

        clock.addAndGet(Duration.ofSeconds(31).toMillis()); // the node stopped renewing: its field has expired
        assertThat(inbox.storeIfOffline("dora", chat("hi"))).isInstanceOf(InboxStore.Offer.Stored.class);
    }

    @Test
    void aNodeStartedAgainUnderItsId_clearsThePresenceItsPreviousLifeLeft_andOnlyThat() {
        RedisPresenceStore before = new RedisPresenceStore(strings, "node-r", Duration.ofSeconds(30),
                Duration.ofSeconds(4), clock::get);
        before.registerNode("127.0.0.1:1");
        before.sessions("rita", 1);
        new RedisPresenceStore(strings, "node-s", Duration.ofSeconds(30), Duration.ofSeconds(4), clock::get)
                .sessions("rita", 2);
        assertThat(before.nodesOf("rita")).containsExactlyInAnyOrder("node-r", "node-s");
        assertThat(before.isAlive("node-r")).isTrue();

        // Killed, and started again under the same id: rita has no session on it any more.
        RedisPresenceStore after = new RedisPresenceStore(strings, "node-r", Duration.ofSeconds(30),
                Duration.ofSeconds(4), clock::get);
        after.registerNode("127.0.0.1:2");

        assertThat(after.nodesOf("rita")).containsExactly("node-s");
        assertThat(after.liveNodes()).containsEntry("node-r", "127.0.0.1:2");
        assertThat(after.isAlive("node-never")).isFalse();
    }

    @Test
    void aFullNode_saysSoAtItsHeartbeat_andNoMoreOnceItHasRoomOrIsGone() {
        RedisPresenceStore full = new RedisPresenceStore(strings, "node-full", Duration.ofSeconds(30),
                Duration.ofSeconds(4), clock::get);
        full.registerNode("127.0.0.1:3");
        full.full(true);
        assertThat(full.fullNodes()).as("said at the next heartbeat, not before").doesNotContain("node-full");

        full.heartbeat("127.0.0.1:3");
        assertThat(full.fullNodes()).contains("node-full");

        full.full(false);
        full.heartbeat("127.0.0.1:3");
        assertThat(full.fullNodes()).doesNotContain("node-full");

        full.full(true);
        full.heartbeat("127.0.0.1:3");
        full.unregisterNode(List.of());
        assertThat(full.fullNodes()).doesNotContain("node-full");
    }

    @Test
    void aRefresh_renewsThePresenceOfEveryUserOfTheNode_overSeveralScriptCalls() {
        RedisPresenceStore presence = new RedisPresenceStore(strings, "node-f", Duration.ofSeconds(30),
                Duration.ofSeconds(4), clock::get);
        java.util.Map<String, Integer> users = new java.util.LinkedHashMap<>();
        for (int i = 0; i < RedisPresenceStore.REFRESH_CALL * 2 + 500; i++) {
            users.put("fay" + i, 1 + i % 3);
            presence.sessions("fay" + i, 1 + i % 3);
        }

        clock.addAndGet(Duration.ofSeconds(25).toMillis());
        List<String> lapsed = new java.util.ArrayList<>();
        presence.refresh("127.0.0.1:1", users, lapsed::add);
        clock.addAndGet(Duration.ofSeconds(10).toMillis()); // 35 s after the sessions, 10 s after the refresh

        assertThat(lapsed).as("presence that had lapsed before the refresh").isEmpty();
        for (String user : List.of("fay0", "fay999", "fay1000", "fay2499")) {
            assertThat(presence.nodesOf(user)).as(user).containsExactly("node-f");
            assertThat(strings.getExpire(RedisKeys.presence(user))).as(user).isBetween(25L, 30L);
        }
        assertThat(strings.opsForHash().get(RedisKeys.presence("fay2"), "node-f"))
                .asString().startsWith("3:");
        assertThat(presence.liveNodes()).containsEntry("node-f", "127.0.0.1:1");
    }

    @Test
    void aRefresh_tellsWhosePresenceHadLapsed_expiredOrGone_andRenewsIt() {
        RedisPresenceStore presence = new RedisPresenceStore(strings, "node-l", Duration.ofSeconds(30),
                Duration.ofSeconds(4), clock::get);
        RedisPresenceStore other = new RedisPresenceStore(strings, "node-m", Duration.ofSeconds(30),
                Duration.ofSeconds(4), clock::get);
        InboxStore inbox = inbox(100, 1 << 20);
        new RedisAccountStore(strings, bytes).create("lena", "lena", "hash");
        java.util.Map<String, Integer> users = new java.util.LinkedHashMap<>();
        for (String user : List.of("lena", "lars", "lotta", "lukas")) {
            users.put(user, 1);
            presence.sessions(user, 1);
        }
        other.sessions("lars", 1);
        clock.addAndGet(Duration.ofSeconds(20).toMillis());
        other.sessions("lars", 1); // lars is online on another node too, which keeps his hash alive
        clock.addAndGet(Duration.ofSeconds(11).toMillis()); // past this node's fields' expiry
        strings.delete(RedisKeys.presence("lotta")); // lost by the store
        presence.sessions("lukas", 1); // renewed in time
        assertThat(inbox.storeIfOffline("lena", chat("meanwhile"))).isInstanceOf(InboxStore.Offer.Stored.class);

        List<String> lapsed = new java.util.ArrayList<>();
        presence.refresh("127.0.0.1:1", users, lapsed::add);

        assertThat(lapsed).containsExactlyInAnyOrder("lena", "lars", "lotta");
        assertThat(inbox.storeIfOffline("lena", chat("now"))).isInstanceOf(InboxStore.Offer.Online.class);
        lapsed.clear();
        presence.refresh("127.0.0.1:1", users, lapsed::add);
        assertThat(lapsed).as("renewed by the refresh before").isEmpty();
    }

    /**
     * The shared connection held up for 3 s (a BLPOP sent on it, where a burst of traffic would be):
     * the heartbeat and the read of the live nodes, on a connection of their own, do not wait behind it.
     */
    @Test
    void theHeartbeat_goesOverAConnectionOfItsOwn_notHeldUpByTheSharedOne() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(redis.isCluster(), "one connection held up, on a single Redis");
        try (OwnRedisConnection own = new OwnRedisConnection(strings.getRequiredConnectionFactory(),
                RedisRoundTrips.untimed())) {
            RedisPresenceStore presence = new RedisPresenceStore(strings, own.template(), "node-h",
                    Duration.ofSeconds(30), Duration.ofSeconds(4), clock::get);
            presence.heartbeat("127.0.0.1:1");
            io.lettuce.core.RedisFuture<?> held = strings.execute(
                    (org.springframework.data.redis.core.RedisCallback<io.lettuce.core.RedisFuture<?>>) c ->
                            RedisBatch.async(c.getNativeConnection()).blpop(3, RedisBytes.of("cim:test:never")));

            long start = System.nanoTime();
            presence.heartbeat("127.0.0.1:2");
            java.util.Map<String, String> live = presence.liveNodes();
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(live).containsEntry("node-h", "127.0.0.1:2");
            assertThat(held.isDone()).as("the shared connection, still held up").isFalse();
            assertThat(took).as("a heartbeat and a read of the live nodes").isLessThan(Duration.ofMillis(1500));
            held.get(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void presenceUpdates_heartbeats_andWatermarks_goOverTheSharedConnection_openingNoNewOnes() {
        // On a cluster the shared connection opens one per master as keys reach it.
        org.junit.jupiter.api.Assumptions.assumeFalse(redis.isCluster(), "counted on a single Redis");
        RedisPresenceStore presence = new RedisPresenceStore(strings, "node-c", Duration.ofSeconds(30),
                Duration.ofSeconds(4), clock::get);
        RedisOriginStore origins = new RedisOriginStore(strings, Duration.ofDays(1));
        presence.heartbeat("127.0.0.1:1"); // the shared connection is open from here on
        long before = connectionsReceived();

        for (int i = 0; i < 20; i++) {
            presence.sessions("carl" + i, 1);
            presence.heartbeat("127.0.0.1:1");
            origins.save(java.util.Map.of("carl" + i, java.util.Map.of(7L, (long) i)));
            presence.sessions("carl" + i, 0);
        }

        assertThat(connectionsReceived() - before).as("connections Redis accepted meanwhile").isZero();
        assertThat(presence.nodesOf("carl3")).isEmpty();
        assertThat(origins.watermark("carl3", 7)).isEqualTo(3);
        assertThat(presence.liveNodes()).containsEntry("node-c", "127.0.0.1:1");
    }

    private long connectionsReceived() {
        java.util.Properties stats = strings.execute((org.springframework.data.redis.core.RedisCallback<java.util.Properties>)
                c -> c.serverCommands().info("stats"));
        return Long.parseLong(stats.getProperty("total_connections_received"));
    }

    @Test
    void accounts_aClaimedSkeletonRefusesOtherNames_butNotItsOwner() {
        RedisAccountStore accounts = new RedisAccountStore(strings, bytes);

        assertThat(accounts.create("fred", "fred", "h1")).isEqualTo(AccountStore.Creation.CREATED);
        assertThat(accounts.create("fred", "fred", "h2")).isEqualTo(AccountStore.Creation.EXISTS);
        assertThat(accounts.create("fr.ed", "fred", "h3")).isEqualTo(AccountStore.Creation.LOOKS_TAKEN);
        assertThat(accounts.exists("fr.ed")).isFalse();
        assertThat(accounts.ownerOf("fred")).contains("fred");
        assertThat(accounts.passwordHash("fred")).contains("h1");

        // A claim whose account was never made (a crash between the two commands) is its owner's.
        strings.opsForValue().set(RedisKeys.nameOwner("gina"), "gina");
        assertThat(accounts.create("gina", "gina", "h")).isEqualTo(AccountStore.Creation.CREATED);
    }

    @Test
    void tokens_liveOnesAreRenewed_expiredOnesRemoved_andOnlyTheLatestKept() {
        RedisAccountStore accounts = new RedisAccountStore(strings, bytes);
        Instant now = Instant.now();
        accounts.addToken("hugo", "t1", now.plusSeconds(100), 2);
        accounts.addToken("hugo", "t2", now.plusSeconds(200), 2);
        accounts.addToken("hugo", "t3", now.plusSeconds(300), 2);

        assertThat(accounts.useToken("hugo", "t1", now, now.plusSeconds(400))).as("pushed out").isFalse();
        assertThat(accounts.useToken("hugo", "t2", now, now.plusSeconds(400))).isTrue();
        assertThat(strings.getExpire(RedisKeys.tokens("hugo"))).as("the key lives as long as its latest token")
                .isBetween(390L, 400L);
        assertThat(accounts.useToken("hugo", "t3", now.plusSeconds(300), now.plusSeconds(700)))
                .as("expired at its time").isFalse();
        assertThat(strings.opsForHash().keys(RedisKeys.tokens("hugo"))).containsExactly("t2");
        assertThat(accounts.revokeTokens("hugo")).isEqualTo(1);
        assertThat(accounts.useToken("hugo", "t2", now, now.plusSeconds(400))).isFalse();
    }

    @Test
    void sessionTokens_perUserAreCapped_theLeastRecentlyUsedGoFirst() {
        RedisAccountStore accounts = new RedisAccountStore(strings, bytes);
        MutableClock clock = new MutableClock(); // Redis expires the key by the real clock: time moves on from it
        SessionTokens tokens = new SessionTokens(accounts, Duration.ofDays(30), 3, clock);
        String first = tokens.issue("iris");
        clock.advance(Duration.ofMinutes(1));
        String second = tokens.issue("iris");
        clock.advance(Duration.ofMinutes(1));
        assertThat(tokens.use("iris", first)).isTrue(); // used last now
        clock.advance(Duration.ofMinutes(1));
        String third = tokens.issue("iris");
        String fourth = tokens.issue("iris");

        assertThat(strings.opsForHash().size(RedisKeys.tokens("iris"))).isEqualTo(3);
        assertThat(tokens.use("iris", second)).as("the least recently used").isFalse();
        assertThat(tokens.use("iris", first)).isTrue();
        assertThat(tokens.use("iris", third)).isTrue();
        assertThat(tokens.use("iris", fourth)).isTrue();
    }

    @Test
    void attemptCounters_countAndExpireAfterTheLastAttempt() {
        RedisAttemptCounters counters = new RedisAttemptCounters(bytes);
        Instant now = Instant.ofEpochMilli(clock.get());

        assertThat(counters.get("login:u:ivy")).isEqualTo(AttemptCounters.Count.NONE);
        counters.add("login:u:ivy", now, Duration.ofSeconds(60));
        AttemptCounters.Count second = counters.add("login:u:ivy", now.plusSeconds(5), Duration.ofSeconds(60));

        assertThat(second).isEqualTo(new AttemptCounters.Count(2, now.plusSeconds(5)));
        assertThat(counters.get("login:u:ivy")).isEqualTo(second);
        assertThat(counters.get(List.of("login:a:10.9.9.9", "login:u:ivy")))
                .as("several in one round trip, in order").containsExactly(AttemptCounters.Count.NONE, second);
        assertThat(strings.getExpire(RedisKeys.attempts("login:u:ivy"))).isBetween(55L, 60L);
        counters.clear("login:u:ivy");
        assertThat(counters.get("login:u:ivy")).isEqualTo(AttemptCounters.Count.NONE);
    }

    @Test
    void storeIfOffline_pastTheLimits_isRefusedSayingWhy() {
        new RedisAccountStore(strings, bytes).create("erin", "erin", "hash");
        InboxStore inbox = inbox(2, 1 << 20);
        inbox.storeIfOffline("erin", chat("1"));
        inbox.storeIfOffline("erin", chat("2"));

        InboxStore.Offer third = inbox.storeIfOffline("erin", chat("3"));

        assertThat(third).isInstanceOfSatisfying(InboxStore.Offer.Full.class,
                full -> assertThat(full.reason()).contains("erin's inbox is full (2 messages"));
    }

    @Test
    void pages_areInOrder_andRemovingAcknowledgedOnesFreesTheirBytes() {
        InboxStore inbox = inbox(100, 1 << 20);
        inbox.store("fay", List.of(chat("a"), chat("b"), chat("c")));

        List<InboxStore.Entry> first = inbox.page("fay", "0", 2);
        List<InboxStore.Entry> rest = inbox.page("fay", first.get(1).id(), 2);
        assertThat(first).extracting(e -> e.chat().getText()).containsExactly("a", "b");
        assertThat(rest).extracting(e -> e.chat().getText()).containsExactly("c");

        inbox.remove("fay", first);
        assertThat(inbox.page("fay", "0", 10)).extracting(e -> e.chat().getText()).containsExactly("c");
        assertThat(strings.opsForValue().get(RedisKeys.inboxBytes("fay"))).isEqualTo(Integer.toString(rest.get(0).bytes()));
    }

    @Test
    void messagesOlderThanTheTimeToLive_areDroppedAsNewOnesCome() {
        RedisInboxStore inbox = new RedisInboxStore(bytes, System::currentTimeMillis, 100, 1 << 20, Duration.ofMillis(1));
        inbox.store("gus", List.of(chat("old")));
        assertThat(texts(inbox.page("gus", "0", 10))).as("stored").containsExactly("old");

        // Stream ids are Redis' own clock: a new store a few milliseconds later finds the old one expired.
        org.awaitility.Awaitility.await("'old' dropped").atMost(Duration.ofSeconds(5)).until(() -> {
            inbox.store("gus", List.of(chat("new")));
            return !texts(inbox.page("gus", "0", 10)).contains("old");
        });

        List<InboxStore.Entry> left = inbox.page("gus", "0", 10);
        assertThat(texts(left)).isNotEmpty().containsOnly("new");
        assertThat(strings.opsForValue().get(RedisKeys.inboxBytes("gus"))).as("the bytes of what is left")
                .isEqualTo(Integer.toString(left.stream().mapToInt(InboxStore.Entry::bytes).sum()));
    }

    private static List<String> texts(List<InboxStore.Entry> entries) {
        return entries.stream().map(e -> e.chat().getText()).toList();
    }

    private static Scheduled draft(String id, long due) {
        return Scheduled.newBuilder().setId(id).setRecipient("bob").setText("text " + id).setDueAtMillis(due)
                .setRequestedMillis(1000).build();
    }

    @Test
    void register_numbersPerUser_isIdempotentById_andRefusesPastTheCap() {
        ScheduledStore store = new RedisScheduledStore(bytes, 16);
        ScheduledStore.Registration first = store.register("hal", draft("a", 10), 2);
        ScheduledStore.Registration again = store.register("hal", draft("a", 10), 2);
        ScheduledStore.Registration second = store.register("hal", draft("b", 5), 2);
        ScheduledStore.Registration third = store.register("hal", draft("c", 5), 2);

        assertThat(first).isInstanceOfSatisfying(ScheduledStore.Registration.Created.class,
                c -> assertThat(c.message().getNumber()).isEqualTo(1));
        assertThat(again).isInstanceOfSatisfying(ScheduledStore.Registration.Existing.class,
                e -> assertThat(e.message().getNumber()).isEqualTo(1));
        assertThat(second).isInstanceOfSatisfying(ScheduledStore.Registration.Created.class,
                c -> assertThat(c.message().getNumber()).isEqualTo(2));
        assertThat(third).isEqualTo(new ScheduledStore.Registration.TooMany(2));
        assertThat(store.list("hal")).extracting(Scheduled::getId).containsExactly("b", "a");
    }

    @Test
    void oneUsersBatch_numbersInOrder_seesItsOwnRepeats_andStopsAtTheCap() {
        ScheduledStore store = new RedisScheduledStore(bytes, 16);
        List<ScheduledStore.Registration> registered = store.registerAll(List.of(
                new ScheduledStore.Draft("pat", draft("a", 10)), new ScheduledStore.Draft("pat", draft("b", 20)),
                new ScheduledStore.Draft("pat", draft("a", 15)), new ScheduledStore.Draft("pat", draft("c", 30))), 2);

        assertThat(registered.get(0)).isInstanceOfSatisfying(ScheduledStore.Registration.Created.class,
                c -> assertThat(c.message().getNumber()).isEqualTo(1));
        assertThat(registered.get(1)).isInstanceOfSatisfying(ScheduledStore.Registration.Created.class,
                c -> assertThat(c.message().getNumber()).isEqualTo(2));
        assertThat(registered.get(2)).isInstanceOfSatisfying(ScheduledStore.Registration.Existing.class,
                e -> assertThat(e.message()).isEqualTo(draft("a", 10).toBuilder().setNumber(1).build()));
        assertThat(registered.get(3)).isEqualTo(new ScheduledStore.Registration.TooMany(2));
    }

    @Test
    void numbersPast127_takeTwoBytes_andReadBack() {
        ScheduledStore store = new RedisScheduledStore(bytes, 16);
        List<ScheduledStore.Draft> drafts = new java.util.ArrayList<>();
        for (int i = 1; i <= 300; i++) {
            drafts.add(new ScheduledStore.Draft("quin", draft("q" + i, i)));
        }
        store.registerAll(drafts, 1_000);

        assertThat(store.list("quin")).extracting(Scheduled::getNumber)
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 300).boxed().toList());
        assertThat(store.list("quin").get(199)).isEqualTo(draft("q200", 200).toBuilder().setNumber(200).build());
    }

    @Test
    void whatEarlierServersStored_isStillRead_andTheirExpiredClaimsAreDueAgain() {
        ScheduledStore store = new RedisScheduledStore(bytes, 16);
        int b = Math.floorMod("rex".hashCode(), 16);
        // As servers before commit 410fd22 wrote them: "<number>\n" and the message with its due and creation
        // times; a claimed message only in the claimed set.
        Scheduled waiting = draft("w", 700).toBuilder().setNumber(14).build();
        Scheduled claimed = draft("c", 100).toBuilder().setNumber(15).build();
        bytes.execute((org.springframework.data.redis.core.RedisCallback<Void>) c -> {
            for (Scheduled m : List.of(waiting, claimed)) {
                byte[] proto = m.toBuilder().clearId().clearNumber().build().toByteArray();
                byte[] earlier = java.nio.ByteBuffer.allocate(3 + proto.length + 2)
                        .put(Long.toString(m.getNumber()).getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                        .put((byte) '\n').put(proto)
                        .put((byte) 0x38).put((byte) 1) // field 7, the creation time
                        .array();
                c.hashCommands().hSet(RedisBytes.of(RedisKeys.scheduledBodies(b)), ScheduledLayout.name("rex", m.getId()),
                        earlier);
            }
            c.zSetCommands().zAdd(RedisBytes.of(RedisKeys.scheduledDue(b)), 700, ScheduledLayout.name("rex", "w"));
            c.zSetCommands().zAdd(RedisBytes.of(RedisKeys.scheduledClaimed(b)), 200, ScheduledLayout.name("rex", "c"));
            return null;
        });

        assertThat(store.list("rex")).containsExactly(waiting);
        // A scan past the first: the window is ahead, the overdue read up to 250.
        ScheduledStore.Scan scan = store.scanAll(300, 1_000, 2_000, 250, 100);
        assertThat(ids(scan, "rex")).as("the claim's lease ended at 200: overdue, read by this scan").containsExactly("c");
        assertThat(scan.entries()).filteredOn(e -> e.user().equals("rex")).singleElement()
                .satisfies(e -> assertThat(e.message()).isEqualTo(claimed));
        assertThat(store.claim("rex", "c", 300, 400)).isInstanceOfSatisfying(ScheduledStore.Claim.Claimed.class,
                c -> assertThat(c.message()).isEqualTo(claimed));
    }

    @Test
    void aClaimThatRanOutUnfinished_isToldToTheNextClaim_whetherAScanFreedItOrNot_andOnlyOnce() {
        ScheduledStore store = new RedisScheduledStore(bytes, 16);
        store.register("lia", draft("a", 100), 10);
        store.register("lia", draft("b", 100), 10);
        store.register("lia", draft("f", 100), 10);
        ScheduledStore.Ref f = new ScheduledStore.Ref("lia", "f");
        for (String id : List.of("a", "b", "f")) {
            assertThat(store.claim("lia", id, 100, 200)).as("a first claim")
                    .isInstanceOfSatisfying(ScheduledStore.Claim.Claimed.class, c -> assertThat(c.lapsed()).isFalse());
        }
        store.finishAll(List.of(new ScheduledStore.Finish(f, 100,
                draft("f", 300).toBuilder().setNumber(3).build(), null)), new ScheduledStore.Keep(Duration.ofDays(1), 2));

        store.scanAll(250, Long.MIN_VALUE, 1_000, Long.MIN_VALUE, 100); // frees the claims of a and b, ended at 200
        assertThat(store.claim("lia", "a", 260, 400)).as("freed by a scan")
                .isInstanceOfSatisfying(ScheduledStore.Claim.Claimed.class, c -> assertThat(c.lapsed()).isTrue());
        assertThat(store.claim("lia", "a", 500, 600)).as("told once: this claim's lease ran out unscanned, so again")
                .isInstanceOfSatisfying(ScheduledStore.Claim.Claimed.class, c -> assertThat(c.lapsed()).isTrue());
        store.finishAll(List.of(new ScheduledStore.Finish(new ScheduledStore.Ref("lia", "a"), 100,
                draft("a", 700).toBuilder().setNumber(1).build(), null)), new ScheduledStore.Keep(Duration.ofDays(1), 2));
        assertThat(store.claim("lia", "a", 700, 800)).as("finished since: its next claim is a first one")
                .isInstanceOfSatisfying(ScheduledStore.Claim.Claimed.class, c -> assertThat(c.lapsed()).isFalse());
        assertThat(store.claim("lia", "f", 300, 400)).as("finished before its lease ended")
                .isInstanceOfSatisfying(ScheduledStore.Claim.Claimed.class, c -> assertThat(c.lapsed()).isFalse());
        assertThat(store.cancel("lia", "b")).isPresent();
        int b = Math.floorMod("lia".hashCode(), 16);
        assertThat(bytes.execute((org.springframework.data.redis.core.RedisCallback<Long>) c ->
                c.setCommands().sCard(RedisBytes.of(RedisKeys.scheduledLapsed(b)))))
                .as("a cancelled message leaves no mark").isZero();
    }

    @Test
    void finish_movesASeriesToItsNextOccurrence_recordsOnce_andKeepsTheNewestRecords() {
        ScheduledStore store = new RedisScheduledStore(bytes, 16);
        Scheduled series = draft("s", 100).toBuilder().setOccurrence(1)
                .setTiming(Timing.newBuilder().setEvery("100s")).build();
        store.register("uma", series, 10);
        assertThat(store.claim("uma", "s", 100, 200)).isInstanceOf(ScheduledStore.Claim.Claimed.class);
        Scheduled next = series.toBuilder().setNumber(1).setOccurrence(2).setDueAtMillis(200).build();
        ScheduledStore.Keep keep = new ScheduledStore.Keep(Duration.ofDays(1), 2);
        ScheduledStore.Finish first = new ScheduledStore.Finish(new ScheduledStore.Ref("uma", "s"), 100, next,
                record(series, ScheduledChange.Kind.SENT, 101));

        assertThat(store.finishAll(List.of(first, first), keep))
                .containsExactly(ScheduledStore.Finished.DONE, ScheduledStore.Finished.GONE);

        assertThat(store.list("uma")).containsExactly(next);
        assertThat(store.records("uma", 10, 0)).as("the second finish of one claim does nothing")
                .extracting(SentRecord::getAtMillis).containsExactly(101L);
        assertThat(store.claim("uma", "s", 150, 300)).as("not due before its next occurrence")
                .isInstanceOf(ScheduledStore.Claim.NotDue.class);
        assertThat(store.claim("uma", "s", 200, 300)).isInstanceOfSatisfying(ScheduledStore.Claim.Claimed.class,
                c -> assertThat(c.message()).isEqualTo(next));
        store.finishAll(List.of(new ScheduledStore.Finish(new ScheduledStore.Ref("uma", "s"), 200, null,
                record(next, ScheduledChange.Kind.DROPPED, 202))), keep);
        store.register("uma", draft("t", 300), 10);
        store.claim("uma", "t", 300, 400);
        store.finishAll(List.of(new ScheduledStore.Finish(new ScheduledStore.Ref("uma", "t"), 300, null,
                record(draft("t", 300), ScheduledChange.Kind.SENT, 303))), keep);

        assertThat(store.list("uma")).isEmpty();
        assertThat(store.records("uma", 10, 0)).as("the newest two, newest first")
                .extracting(SentRecord::getAtMillis).containsExactly(303L, 202L);
        assertThat(store.records("uma", 1, 0)).extracting(SentRecord::getAtMillis).containsExactly(303L);
        assertThat(store.records("uma", 10, 250)).as("none older than asked").hasSize(1);
        assertThat(bytes.getExpire(RedisKeys.scheduledRecord(Math.floorMod("uma".hashCode(), 16), "uma")))
                .as("kept for a day after the last").isBetween(86_000L, 86_400L);
    }

    @Test
    void waiting_notesWhoWaitsForWhom_andClaimNow_claimsAMessageNotYetDue_once() {
        ScheduledStore store = new RedisScheduledStore(bytes, 16);
        String usual = "9f86d081884c7d65-7";
        ScheduledStore.Ref first = new ScheduledStore.Ref("vic", usual);
        ScheduledStore.Ref second = new ScheduledStore.Ref("wes", "w1");
        store.waitFor("xena", first);
        store.waitFor("xena", second);
        store.waitFor("xena", first);
        store.register("vic", draft(usual, Long.MAX_VALUE), 10);

        assertThat(store.waiting("xena", 10)).containsExactlyInAnyOrder(first, second);
        assertThat(store.waiting("yuri", 10)).isEmpty();
        assertThat(store.claimAll(List.of(first), 1_000, 2_000)).singleElement()
                .isInstanceOf(ScheduledStore.Claim.NotDue.class);
        List<ScheduledStore.Claim> now = store.claimAllNow(List.of(first, second), 1_000, 2_000);
        assertThat(now.get(0)).isInstanceOfSatisfying(ScheduledStore.Claim.Claimed.class,
                c -> assertThat(c.message().getDueAtMillis()).isEqualTo(Long.MAX_VALUE));
        assertThat(now.get(1)).as("never registered").isInstanceOf(ScheduledStore.Claim.Gone.class);
        assertThat(store.claimAllNow(List.of(first), 1_500, 2_500)).as("claimed already").singleElement()
                .isInstanceOf(ScheduledStore.Claim.Gone.class);
        assertThat(store.finishAll(List.of(new ScheduledStore.Finish(first, Long.MAX_VALUE, null, null)),
                new ScheduledStore.Keep(Duration.ofDays(1), 1))).containsExactly(ScheduledStore.Finished.DONE);
        assertThat(store.list("vic")).isEmpty();
        store.unwait("xena", List.of(first, second));
        assertThat(store.waiting("xena", 10)).isEmpty();
    }

    @Test
    void cancel_ofASeriesWhileAnOccurrenceIsBeingSent_endsTheSeries_andItsFinishDoesNotMoveItOn() {
        ScheduledStore store = new RedisScheduledStore(bytes, 16);
        Scheduled series = draft("s", 100).toBuilder().setOccurrence(1)
                .setTiming(Timing.newBuilder().setEvery("100s")).build();
        store.register("val", series, 10);
        assertThat(store.claim("val", "s", 100, 200)).isInstanceOf(ScheduledStore.Claim.Claimed.class);

        assertThat(store.cancel("val", "s")).isPresent();

        Scheduled next = series.toBuilder().setNumber(1).setOccurrence(2).setDueAtMillis(200).build();
        assertThat(store.finishAll(List.of(new ScheduledStore.Finish(new ScheduledStore.Ref("val", "s"), 100, next,
                record(series, ScheduledChange.Kind.SENT, 101))), new ScheduledStore.Keep(Duration.ofDays(1), 2)))
                .containsExactly(ScheduledStore.Finished.GONE);
        assertThat(store.list("val")).isEmpty();
        assertThat(store.claim("val", "s", 300, 400)).isInstanceOf(ScheduledStore.Claim.Gone.class);
    }

    private static SentRecord record(Scheduled message, ScheduledChange.Kind outcome, long at) {
        return SentRecord.newBuilder().setMessage(message).setOutcome(outcome).setAtMillis(at).build();
    }

    @Test
    void claim_onlyOnce_onlyWhenDue_andAnExpiredClaimCanBeClaimedAgain() {
        ScheduledStore store = new RedisScheduledStore(bytes, 16);
        store.register("ivy", draft("m", 100), 10);

        assertThat(store.claim("ivy", "m", 99, 200)).isInstanceOf(ScheduledStore.Claim.NotDue.class);
        assertThat(store.claim("ivy", "m", 100, 200)).isInstanceOf(ScheduledStore.Claim.Claimed.class);
        assertThat(store.claim("ivy", "m", 101, 200)).isInstanceOf(ScheduledStore.Claim.Gone.class);
        assertThat(store.cancel("ivy", "m")).isEmpty(); // being sent (a one-off message goes out)
        assertThat(store.claim("ivy", "m", 199, 300)).as("its lease runs").isInstanceOf(ScheduledStore.Claim.Gone.class);
        assertThat(store.claim("ivy", "m", 202, 300)).isInstanceOfSatisfying(ScheduledStore.Claim.Claimed.class,
                c -> assertThat(c.message().getDueAtMillis()).as("still due when it was").isEqualTo(100));

        store.done("ivy", "m", 100);
        assertThat(store.list("ivy")).isEmpty();
        assertThat(ids(store.scanAll(400, Long.MIN_VALUE, 1_000, Long.MIN_VALUE, 100), "ivy")).isEmpty();
        assertThat(store.claim("ivy", "m", 500, 600)).isInstanceOf(ScheduledStore.Claim.Gone.class);
        assertThat(store.register("ivy", draft("n", 100), 1)).isInstanceOf(ScheduledStore.Registration.Created.class);
    }

    @Test
    void scanAll_freesExpiredClaims_readsTheWindow_andWhatALeaseHasPassedOver_andCounts() {
        ScheduledStore store = new RedisScheduledStore(bytes, 16);
        store.register("mo", draft("a", 100), 10);
        store.register("mo", draft("b", 300), 10);
        store.register("mo", draft("c", 500), 10);
        assertThat(store.claim("mo", "a", 150, 200)).isInstanceOf(ScheduledStore.Claim.Claimed.class);

        ScheduledStore.Scan claimed = store.scanAll(190, Long.MIN_VALUE, 400, Long.MIN_VALUE, 100);
        assertThat(ids(claimed, "mo")).as("a is claimed, its lease running").containsExactly("b");

        ScheduledStore.Scan first = store.scanAll(250, Long.MIN_VALUE, 400, Long.MIN_VALUE, 100);

        assertThat(first.freed()).as("a's lease ran out at 200").isPositive();
        assertThat(ids(first, "mo")).containsExactly("a", "b");
        assertThat(first.entries()).filteredOn(e -> e.message().getId().equals("a")).singleElement()
                .satisfies(e -> assertThat(e.message().getDueAtMillis()).isEqualTo(100));
        assertThat(first.stored()).isEqualTo(store.count());

        ScheduledStore.Scan next = store.scanAll(260, 400, 600, 250, 100);

        assertThat(ids(next, "mo")).as("c entered the window; a is overdue").containsExactly("c", "a");
        assertThat(next.entries()).filteredOn(e -> e.message().getId().equals("c")).singleElement()
                .satisfies(e -> assertThat(e.message().getText()).isEqualTo("text c"))
                .satisfies(e -> assertThat(e.message().getDueAtMillis()).isEqualTo(500));
    }

    private static List<String> ids(ScheduledStore.Scan scan, String user) {
        return scan.entries().stream().filter(e -> e.user().equals(user)).map(e -> e.message().getId()).toList();
    }

    @Test
    void edit_cancel_andScans_seeTheChanges() {
        ScheduledStore store = new RedisScheduledStore(bytes, 16);
        store.register("jon", draft("x", 1_000), 10);

        assertThat(store.edit("jon", "x", "new text", 0, 0)).get().extracting(Scheduled::getText).isEqualTo("new text");
        assertThat(store.edit("jon", "x", "", 500, 42)).get().extracting(Scheduled::getDueAtMillis).isEqualTo(500L);
        assertThat(store.list("jon")).singleElement().satisfies(m -> assertThat(m.getDueAtMillis()).isEqualTo(500))
                .satisfies(m -> assertThat(m.getRequestedMillis()).isEqualTo(42))
                .satisfies(m -> assertThat(m.getText()).isEqualTo("new text"));
        assertThat(ids(store.scanAll(0, 499, 500, Long.MIN_VALUE, 100), "jon")).containsExactly("x");
        assertThat(store.cancel("jon", "x")).get().satisfies(m -> assertThat(m.getText()).isEqualTo("new text"))
                .satisfies(m -> assertThat(m.getDueAtMillis()).isEqualTo(500));
        assertThat(store.edit("jon", "x", "too late", 0, 0)).isEmpty();
        assertThat(ids(store.scanAll(0, Long.MIN_VALUE, 600, Long.MIN_VALUE, 100), "jon")).isEmpty();
    }

    @Test
    void batches_answerEachInOrder_packUsualIds_andSurviveRedisForgettingItsScripts() {
        ScheduledStore store = new RedisScheduledStore(bytes, 16);
        String usual = "9f86d081884c7d65-42";
        List<ScheduledStore.Registration> registered = store.registerAll(List.of(
                new ScheduledStore.Draft("kay", draft(usual, 100)),
                new ScheduledStore.Draft("kay", draft("not-an-usual-id", 100)),
                new ScheduledStore.Draft("lou", draft(usual, 300))), 10);
        assertThat(registered).allSatisfy(r -> assertThat(r).isInstanceOf(ScheduledStore.Registration.Created.class));
        assertThat(store.list("kay")).extracting(Scheduled::getId).containsExactlyInAnyOrder(usual, "not-an-usual-id");
        assertThat(store.list("lou")).singleElement().extracting(Scheduled::getText).isEqualTo("text " + usual);

        strings.execute((org.springframework.data.redis.core.RedisCallback<Void>) c -> {
            c.scriptingCommands().scriptFlush(); // as after a restart of Redis without its scripts
            return null;
        });
        List<ScheduledStore.Claim> claims = store.claimAll(List.of(new ScheduledStore.Ref("kay", usual),
                new ScheduledStore.Ref("lou", usual), new ScheduledStore.Ref("kay", "never")), 200, 1_000);

        assertThat(claims.get(0)).isInstanceOfSatisfying(ScheduledStore.Claim.Claimed.class,
                c -> assertThat(c.message().getId()).isEqualTo(usual));
        assertThat(claims.get(1)).isInstanceOf(ScheduledStore.Claim.NotDue.class);
        assertThat(claims.get(2)).isInstanceOf(ScheduledStore.Claim.Gone.class);
        assertThat(store.finishAll(List.of(new ScheduledStore.Finish(new ScheduledStore.Ref("kay", usual), 100, null, null)),
                new ScheduledStore.Keep(Duration.ofDays(1), 10))).containsExactly(ScheduledStore.Finished.DONE);
        assertThat(store.list("kay")).extracting(Scheduled::getId).containsExactly("not-an-usual-id");
        assertThat(ids(store.scanAll(0, 299, 300, Long.MIN_VALUE, 10), "lou")).containsExactly(usual);
        assertThat(ids(store.scanAll(0, 300, 400, Long.MIN_VALUE, 10), "lou")).as("after is excluded").isEmpty();
    }

    @Test
    void originWatermarks_roundTrip() {
        RedisOriginStore origins = new RedisOriginStore(strings, Duration.ofDays(1));
        origins.save(Map.of("kim", Map.of(0xa1L, 41L)));

        assertThat(origins.watermark("kim", 0xa1L)).isEqualTo(41);
        assertThat(origins.watermark("kim", 0xa2L)).isZero();
    }
}
