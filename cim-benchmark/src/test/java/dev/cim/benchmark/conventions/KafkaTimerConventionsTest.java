package dev.cim.benchmark.conventions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cim.common.wheel.DelayScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.server.util.timer.Timer;
import org.apache.kafka.server.util.timer.TimerTask;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Kafka's timer tests (apache/kafka, {@code server-common/src/test/java/org/apache/kafka/server/util/
 * timer/TimerTest.java} and {@code SystemTimerReaperTest.java}, Licensed to the Apache Software
 * Foundation, Apache License 2.0), their scenarios and assertions ported to our wheel behind
 * {@link WheelAsKafkaTimer}: same intent, our own code. Kafka's {@code TimerTest} builds its timer
 * with a 1 ms tick; so does {@link #setUp}.
 *
 * <p>Differences on purpose, with the test kept: our wheel keeps time on its own thread, so Kafka's
 * {@code advanceClock} only observes here (see {@link WheelAsKafkaTimer}); and {@code close()} stops
 * the wheel's own thread, where Kafka's test checks its executor. A task with a delay of zero or less
 * runs at once in both, the convention this port holds the wheel to. {@code TimerTaskListTest} is not
 * ported: it tests Kafka's bucket list, an internal with no counterpart behind the {@code Timer}
 * contract.
 */
class KafkaTimerConventionsTest {

    private static final class TestTask extends TimerTask {
        final int id;
        final CountDownLatch latch;
        final List<Integer> output;
        final AtomicBoolean completed = new AtomicBoolean(false);

        TestTask(long delayMs, int id, CountDownLatch latch, List<Integer> output) {
            super(delayMs);
            this.id = id;
            this.latch = latch;
            this.output = output;
        }

        @Override
        public void run() {
            if (completed.compareAndSet(false, true)) {
                synchronized (output) {
                    output.add(id);
                }
                latch.countDown();
            }
        }
    }

    private final WheelAsKafkaTimer timer = setUp();

    private static WheelAsKafkaTimer setUp() {
        return new WheelAsKafkaTimer(DelayScheduler.builder().tick(Duration.ofMillis(1)).threadNamePrefix(
                "kafka-conventions-" + System.nanoTime()).build());
    }

    @AfterEach
    void tearDown() {
        timer.close();
    }

    @Test
    void add_alreadyExpiredTasks_runImmediately() throws Exception {
        // Kafka: testAlreadyExpiredTask (delays -5 .. -1 ms).
        List<Integer> output = new ArrayList<>();
        List<CountDownLatch> latches = IntStream.range(-5, 0).mapToObj(i -> {
            CountDownLatch latch = new CountDownLatch(1);
            timer.add(new TestTask(i, i, latch, output));
            return latch;
        }).collect(Collectors.toList());

        timer.advanceClock(0L);

        for (CountDownLatch latch : latches) {
            assertThat(latch.await(3, TimeUnit.SECONDS)).as("already expired tasks should run immediately").isTrue();
        }
        synchronized (output) {
            assertThat(new HashSet<>(output)).as("output of already expired tasks").isEqualTo(Set.of(-5, -4, -3, -2, -1));
        }
    }

    @Test
    void add_manyTasksInRandomOrder_eachExpiresExactlyOnce() throws Exception {
        // Kafka: testTaskExpiration (0..4, 10..99 twice, 100..499 ms). Kafka loops on
        // advanceClock(2000) until a call sees nothing expire; here 500 ms of nothing ends the loop.
        List<Integer> output = new ArrayList<>();
        List<TestTask> tasks = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        List<CountDownLatch> latches = new ArrayList<>();
        IntStream.range(0, 5).forEach(i -> {
            CountDownLatch latch = new CountDownLatch(1);
            tasks.add(new TestTask(i, i, latch, output));
            ids.add(i);
            latches.add(latch);
        });
        IntStream.range(10, 100).forEach(i -> {
            CountDownLatch latch = new CountDownLatch(2);
            tasks.add(new TestTask(i, i, latch, output));
            tasks.add(new TestTask(i, i, latch, output));
            ids.add(i);
            ids.add(i);
            latches.add(latch);
        });
        IntStream.range(100, 500).forEach(i -> {
            CountDownLatch latch = new CountDownLatch(1);
            tasks.add(new TestTask(i, i, latch, output));
            ids.add(i);
            latches.add(latch);
        });

        tasks.forEach(timer::add);
        while (timer.advanceClock(500)) {
            // until nothing more expires
        }

        for (CountDownLatch latch : latches) {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        }
        synchronized (output) {
            assertThat(output.stream().sorted().collect(Collectors.toList())).as("output should match").isEqualTo(ids);
        }
        assertThat(timer.size()).isZero();
    }

    @Test
    void reaper_tasksWithDelays_completeTheirFuturesWhenDue() throws Exception {
        // Kafka: SystemTimerReaperTest.testReaper (100, 200 and 300 ms).
        try (Timer reaper = setUp()) {
            CompletableFuture<Void> t1 = add(reaper, 100L);
            CompletableFuture<Void> t2 = add(reaper, 200L);
            CompletableFuture<Void> t3 = add(reaper, 300L);
            for (CompletableFuture<Void> future : List.of(t1, t2, t3)) {
                assertThatThrownBy(() -> future.get(10, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
            }
        }
    }

    @Test
    void close_stopsTheTimersThread() throws Exception {
        // Kafka: SystemTimerReaperTest.testReaperClose (checks, with a mock, that close() closes the
        // timer and the reaper thread ends). Ours has one thread of its own, the ticker.
        String prefix = "kafka-close-" + System.nanoTime();
        WheelAsKafkaTimer closing = new WheelAsKafkaTimer(DelayScheduler.builder().threadNamePrefix(prefix).build());
        CountDownLatch ran = new CountDownLatch(1);
        closing.add(new TestTask(0, 0, ran, new ArrayList<>()));
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(threadsNamed(prefix + "-ticker")).isNotEmpty();

        closing.close();

        assertThat(threadsNamed(prefix + "-ticker")).as("reaper not shutdown").isEmpty();
    }

    private static CompletableFuture<Void> add(Timer timer, long delayMs) {
        CompletableFuture<Void> future = new CompletableFuture<>();
        timer.add(new TimerTask(delayMs) {
            @Override
            public void run() {
                future.completeExceptionally(new TimeoutException(
                        String.format("Future failed to be completed before timeout of %sMs ms was reached", delayMs)));
            }
        });
        return future;
    }

    private static List<String> threadsNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(name::equals).toList();
    }
}
