package dev.cim.server.chat.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
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
