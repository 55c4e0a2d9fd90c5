package dev.cim.server.chat.origin;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Receipt;
import dev.cim.server.chat.fakes.FakeConnection;
import dev.cim.server.chat.fakes.ListInbox;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.chat.session.LocalUsers;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.SessionLimits;
import dev.cim.server.chat.session.Sessions;
import dev.cim.server.chat.session.Tracker;
import dev.cim.server.chat.session.WriteCounter;
import dev.cim.server.store.OriginStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OriginsTest {

    private static final Duration IDLE = Duration.ofMinutes(10);

    /** Remembers every write; fails the next ones while {@link #failing}. */
    private static final class Store implements OriginStore {
        final Map<String, Long> kept = new HashMap<>();
        final List<Map<String, Map<Long, Long>>> saves = new ArrayList<>();
        boolean failing;

        @Override
        public long watermark(String user, long origin) {
            return kept.getOrDefault(user + "/" + origin, 0L);
        }

        @Override
        public void save(Map<String, Map<Long, Long>> watermarks) {
            if (failing) {
                throw new IllegalStateException("store down");
            }
            saves.add(watermarks);
            watermarks.forEach((user, origins) -> origins.forEach((origin, w) -> kept.put(user + "/" + origin, w)));
        }
    }

    private final Store store = new Store();
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final Origins origins = new Origins(store, now::get, IDLE);

    private final UserLanes lanes = new UserLanes(1);
    private final Sessions sessions = new Sessions(new LocalUsers(), lanes::of, new ListInbox(user -> Set.of()),
            new SessionLimits(100, 1 << 20, 100, 10), WriteCounter.UNCOUNTED);

    @AfterEach
    void closeLanes() {
        lanes.close();
    }

    private Session session(String user) {
        return sessions.open(user, 1, new FakeConnection(Runnable::run), s -> { });
    }

    private static void resolve(Origin origin, long sequence) {
        origin.answered(sequence, Envelopes.receipt(sequence, Receipt.Outcome.DELIVERED,
                ByteString.copyFromUtf8("id-" + sequence), 1, "", false));
    }

    private static void route(Origin origin, long sequence) {
        assertThat(origin.claim(sequence)).isTrue();
        origin.pending(new Tracker(sequence, ByteString.copyFromUtf8("id-" + sequence),
                "bob", (t, s, stored, f) -> { }));
    }

    @Test
    void anOriginIsWritten_whenItRouted_andNotAgainUntilItRoutesMore() {
        Origin alice = origins.get("alice", 1);
        origins.get("carol", 3); // routes nothing: never written
        route(alice, 1);
        resolve(alice, 1);

        origins.flush();
        origins.flush();

        assertThat(store.saves).containsExactly(Map.of("alice", Map.of(1L, 1L)));
        route(alice, 2);
        resolve(alice, 2);
        origins.flush();
        assertThat(store.saves).hasSize(2);
        assertThat(store.kept).containsEntry("alice/1", 2L).doesNotContainKey("carol/3");
    }

    @Test
    void aWatermarkHeldBackByAnUnresolvedMessage_isWrittenOnceItIsResolved_withNothingRoutedSince() {
        Origin alice = origins.get("alice", 1);
        route(alice, 1);
        route(alice, 2);
        resolve(alice, 1);

        origins.flush();
        assertThat(store.kept).containsEntry("alice/1", 1L);
        resolve(alice, 2);
        origins.flush();

        assertThat(store.kept).containsEntry("alice/1", 2L);
        origins.flush();
        assertThat(store.saves).hasSize(2);
    }

    @Test
    void aWriteThatFailed_isDoneAgainByTheNext() {
        Origin alice = origins.get("alice", 1);
        route(alice, 1);
        resolve(alice, 1);
        store.failing = true;

        origins.flush();
        store.failing = false;
        origins.flush();

        assertThat(store.kept).containsEntry("alice/1", 1L);
    }

    @Test
    void anOriginWithoutASession_isForgottenOnceIdle_oneWithASessionIsKept() {
        Origin alice = origins.get("alice", 1);
        Origin bob = origins.get("bob", 2);
        Session alicesSession = session("alice");
        origins.attach(bob, session("bob"));
        origins.attach(alice, alicesSession);
        origins.flush(); // both have a session: neither is looked at again until it has none
        origins.detach(alice, alicesSession);
        origins.flush();
        assertThat(origins.size()).as("not idle for long enough yet").isEqualTo(2);

        now.addAndGet(IDLE.toNanos() + TimeUnit.SECONDS.toNanos(1));
        origins.flush();

        assertThat(origins.size()).as("alice forgotten").isEqualTo(1);
        assertThat(origins.get("bob", 2)).isSameAs(bob);
        assertThat(origins.get("alice", 1)).as("made anew").isNotSameAs(alice);
    }

    @Test
    void anOriginForgottenWithAMessageToBeSentAgain_leavesTheWritersList() {
        Origin alice = origins.get("alice", 1);
        Session session = session("alice");
        origins.attach(alice, session);
        route(alice, 1);
        route(alice, 2);
        resolve(alice, 1);
        assertThat(alice.retry(2, "bob")).isTrue(); // its watermark stays at 1 until 2 comes again
        origins.flush();
        assertThat(store.kept).containsEntry("alice/1", 1L);
        assertThat(origins.listed()).as("its watermark may still move").isEqualTo(1);

        origins.detach(alice, session);
        now.addAndGet(IDLE.toNanos() + TimeUnit.SECONDS.toNanos(1));
        origins.flush();
        assertThat(origins.size()).as("forgotten").isZero();
        origins.flush();

        assertThat(origins.listed()).isZero();
    }
}
