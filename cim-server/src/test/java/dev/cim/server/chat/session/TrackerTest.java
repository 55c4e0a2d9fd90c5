package dev.cim.server.chat.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import com.google.protobuf.ByteString;
import dev.cim.common.protocol.proto.ErrorReply;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class TrackerTest {

    private record Done(int sessions, boolean stored, Tracker.Failure failure) {
    }

    private final List<Done> outcomes = new ArrayList<>();
    private final Tracker tracker = new Tracker(7, ByteString.copyFromUtf8("00000000000000a1-7"), "bob",
            (t, sessions, stored, failure) -> {
                synchronized (outcomes) {
                    outcomes.add(new Done(sessions, stored, failure));
                }
            });

    @Test
    void seal_withNoParts_givesTheOutcomeAtOnce() {
        tracker.seal();

        assertThat(outcomes).containsExactly(new Done(0, false, null));
    }

    @Test
    void outcome_waitsForTheSeal_evenWhenEveryPartIsDoneBefore() {
        tracker.expect();
        tracker.delivered();
        assertThat(outcomes).isEmpty();

        tracker.seal();

        assertThat(outcomes).containsExactly(new Done(1, false, null));
    }

    @Test
    void outcome_countsSessionsAndSaysStoredWhenAnyPartWasStored() {
        tracker.expect();
        tracker.expect();
        tracker.expect();
        tracker.seal();
        tracker.delivered();
        tracker.remote(2, false);
        assertThat(outcomes).isEmpty();
        tracker.stored();

        assertThat(outcomes).containsExactly(new Done(3, true, null));
    }

    @Test
    void failure_isKept_andTheFirstOneWins() {
        tracker.expect();
        tracker.expect();
        tracker.seal();
        tracker.failed(new Tracker.Failure(ErrorReply.Code.INBOX_FULL, "full"));
        tracker.failed(new Tracker.Failure(ErrorReply.Code.INTERNAL, "down"));

        assertThat(outcomes).singleElement().satisfies(d -> assertThat(d.failure().code()).isEqualTo(ErrorReply.Code.INBOX_FULL));
    }

    @Test
    void aPartDoneTwice_isABugThatSaysSo() {
        tracker.expect();
        tracker.delivered();

        assertThatIllegalStateException().isThrownBy(tracker::delivered).withMessageContaining("a part done twice");
    }

    @Test
    void expect_afterTheOutcome_isABugThatSaysSo() {
        tracker.seal();

        assertThatIllegalStateException().isThrownBy(tracker::expect).withMessageContaining("has finished");
    }

    @Test
    void partsDoneOnManyThreads_giveExactlyOneOutcome() throws InterruptedException {
        int parts = 10_000;
        for (int i = 0; i < parts; i++) {
            tracker.expect();
        }
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < parts / 4; i++) {
                    tracker.delivered();
                }
            }));
        }
        threads.forEach(Thread::start);
        tracker.seal();
        start.countDown();
        for (Thread thread : threads) {
            thread.join(10_000);
        }

        assertThat(outcomes).containsExactly(new Done(parts, false, null));
    }
}
