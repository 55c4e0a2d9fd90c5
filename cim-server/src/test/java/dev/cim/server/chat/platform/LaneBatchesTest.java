package dev.cim.server.chat.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import dev.cim.common.wheel.DelayScheduler;
import java.time.Duration;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LaneBatchesTest {

    private final UserLanes lanes = new UserLanes(1);
    private final List<Object> done = new ArrayList<>(); // confined to the one lane

    @AfterEach
    void stop() {
        lanes.close(1_000);
    }

    @Test
    void itemsQueuedWhileTheLaneIsBusy_goToTheStoreAsOneBatch() throws Exception {
        LaneBatches<Integer> batches = new LaneBatches<>(lanes, done::add);
        CountDownLatch busy = blockLane();

        for (int i = 0; i < 100; i++) {
            batches.add("alice", i);
        }
        busy.countDown();
        awaitLane();

        assertThat(done).hasSize(1);
        assertThat((List<?>) done.get(0)).hasSize(100).first().isEqualTo(0);
    }

    @Test
    void anItemQueuedBeforeALaneTask_isDoneBeforeIt() throws Exception {
        LaneBatches<String> batches = new LaneBatches<>(lanes, batch -> done.addAll(batch));
        CountDownLatch busy = blockLane();

        batches.add("alice", "schedule");
        lanes.of("alice").execute(() -> done.add("cancel"));
        busy.countDown();
        awaitLane();
        batches.add("alice", "schedule again"); // the lane is idle: a batch of its own, at once
        lanes.of("alice").execute(() -> done.add("cancel again"));
        awaitLane();

        assertThat(done).containsExactly("schedule", "cancel", "schedule again", "cancel again");
    }

    @Test
    void aBatchLargerThanARound_isDoneInRounds_inOrder() throws Exception {
        List<Integer> sizes = new ArrayList<>();
        List<Integer> order = new ArrayList<>();
        LaneBatches<Integer> batches = new LaneBatches<>(lanes, batch -> {
            sizes.add(batch.size());
            order.addAll(batch);
        });
        CountDownLatch busy = blockLane();

        for (int i = 0; i < LaneBatches.ROUND + 1; i++) {
            batches.add("alice", i);
        }
        busy.countDown();
        awaitLane();

        assertThat(sizes).containsExactly(LaneBatches.ROUND, 1);
        assertThat(order).hasSize(LaneBatches.ROUND + 1).isSorted();
    }

    @Test
    void lingering_itemsAddedWithinTheLinger_goAsOneBatch_noEarlierThanTheLinger() {
        DelayScheduler wheel = DelayScheduler.builder().tick(Duration.ofMillis(10)).build();
        try {
            List<List<Integer>> batches = new CopyOnWriteArrayList<>();
            LaneBatches<Integer> lingering = new LaneBatches<>(lanes, batch -> batches.add(List.copyOf(batch)), wheel,
                    Duration.ofSeconds(1));
            long start = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                lingering.add("alice", i);
            }

            await().atMost(Duration.ofSeconds(10)).until(() -> !batches.isEmpty());
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            assertThat(batches).singleElement().satisfies(batch -> assertThat(batch).hasSize(100).isSorted());

            lingering.add("alice", 100); // the lane is idle again: another linger
            await().atMost(Duration.ofSeconds(10)).until(() -> batches.size() == 2);
            assertThat(batches.get(1)).containsExactly(100);
        } finally {
            wheel.stopNow();
        }
    }

    @Test
    void lingering_onAStoppedWheel_handsTheBatchOverAtOnce() {
        DelayScheduler wheel = DelayScheduler.builder().tick(Duration.ofMillis(10)).build();
        wheel.stopNow();
        List<Integer> items = new CopyOnWriteArrayList<>();
        LaneBatches<Integer> lingering = new LaneBatches<>(lanes, items::addAll, wheel, Duration.ofHours(1));

        lingering.add("alice", 1);

        await().atMost(Duration.ofSeconds(10)).until(() -> items.size() == 1);
    }

    @Test
    void aLinger_needsAWheel_andIsNotNegative() {
        assertThatIllegalArgumentException().isThrownBy(() -> new LaneBatches<>(lanes, done::add, null,
                Duration.ofMillis(1))).withMessage("linger: PT0.001S (expected: zero, or positive with a wheel)");
        DelayScheduler wheel = DelayScheduler.builder().build();
        try {
            assertThatIllegalArgumentException().isThrownBy(() -> new LaneBatches<>(lanes, done::add, wheel,
                    Duration.ofMillis(-1))).withMessageStartingWith("linger: PT-0.001S");
        } finally {
            wheel.stopNow();
        }
    }

    private CountDownLatch blockLane() {
        CountDownLatch busy = new CountDownLatch(1);
        lanes.of("alice").execute(() -> {
            try {
                busy.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return busy;
    }

    private void awaitLane() throws Exception {
        lanes.of("alice").submit(() -> { }).get(10, TimeUnit.SECONDS);
    }
}
