package dev.cim.common.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The real ticker thread and worker pool on the system clock, with several threads at once. */
class WheelSchedulerConcurrencyTest {

    private static final int THREADS = 4;
    private static final int PER_THREAD = 25_000;

    @Test
    void schedulingAndCancellingFromManyThreadsWhileTicking_runsEveryJobNotCancelledExactlyOnce() throws Exception {
        DelayScheduler wheel = DelayScheduler.builder().tick(Duration.ofMillis(1)).slots(64).build();
        AtomicIntegerArray runs = new AtomicIntegerArray(THREADS * PER_THREAD);
        AtomicIntegerArray cancelled = new AtomicIntegerArray(THREADS * PER_THREAD);
        AtomicInteger early = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int first = t * PER_THREAD;
            threads.add(new Thread(() -> {
                await(start);
                ThreadLocalRandom random = ThreadLocalRandom.current();
                List<ScheduledJob> mine = new ArrayList<>();
                for (int i = 0; i < PER_THREAD; i++) {
                    int index = first + i;
                    long delay = random.nextLong(TimeUnit.MILLISECONDS.toNanos(30));
                    long notBefore = System.nanoTime() + delay;
                    mine.add(wheel.schedule(() -> {
                        if (System.nanoTime() < notBefore) {
                            early.incrementAndGet();
                        }
                        runs.incrementAndGet(index);
                    }, delay, TimeUnit.NANOSECONDS));
                    if (random.nextInt(10) < 3) {
                        int victim = random.nextInt(mine.size());
                        if (mine.get(victim).cancel()) {
                            cancelled.incrementAndGet(first + victim);
                        }
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }

        awaitTrue(() -> wheel.pending() == 0, Duration.ofSeconds(30));

        for (int i = 0; i < runs.length(); i++) {
            assertThat(runs.get(i)).as("runs of job %d (cancelled: %d)", i, cancelled.get(i))
                    .isEqualTo(1 - cancelled.get(i));
        }
        assertThat(early.get()).as("jobs run before their delay").isZero();
        assertThat(wheel.stopNow().isComplete()).isTrue();
    }

    @Test
    void schedulingAndCancellingFromManyThreadsWhileTheTickerSleepsUntilAFarJob_isNeverSleptThrough() throws Exception {
        // The ticker's alarm is an hour away; every short job must move it (and wake the ticker), and
        // every cancel must get its bookkeeping done, however the threads interleave with its passes.
        // A lost wake-up would leave a job waiting for the far one: the deadline below catches it.
        DelayScheduler wheel = DelayScheduler.builder().tick(Duration.ofMillis(1)).slots(64).build();
        wheel.schedule(() -> { }, Duration.ofHours(1));
        int rounds = 50;
        int perRound = 200;
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger cancelledOk = new AtomicInteger();
        AtomicInteger early = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            threads.add(new Thread(() -> {
                await(start);
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int round = 0; round < rounds; round++) {
                    for (int i = 0; i < perRound; i++) {
                        long delay = random.nextLong(-1_000_000, 5_000_000); // -1 .. 5 ms: some "now"
                        long notBefore = System.nanoTime() + Math.max(0, delay);
                        wheel.schedule(() -> {
                            if (System.nanoTime() < notBefore) {
                                early.incrementAndGet();
                            }
                            ran.incrementAndGet();
                        }, delay, TimeUnit.NANOSECONDS);
                        if (wheel.schedule(() -> { }, 30, TimeUnit.MINUTES).cancel()) {
                            cancelledOk.incrementAndGet();
                        }
                    }
                    LockSupport.parkNanos(random.nextLong(2_000_000)); // let the ticker fall asleep again
                }
            }));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }

        int expected = THREADS * rounds * perRound;
        awaitTrue(() -> ran.get() == expected && wheel.pending() == 1, Duration.ofSeconds(30));
        assertThat(cancelledOk.get()).isEqualTo(expected);
        assertThat(early.get()).as("jobs run before their delay").isZero();
        assertThat(wheel.stopNow().discarded()).as("only the far job is left").hasSize(1);
    }

    @Test
    void schedulingWhileAnotherThreadStops_everyAcceptedJobEitherRunsOrIsReportedDiscarded() throws Exception {
        for (int round = 0; round < 20; round++) {
            DelayScheduler wheel = DelayScheduler.builder().tick(Duration.ofMillis(1)).build();
            Set<Long> ran = ConcurrentHashMap.newKeySet(); // keys, chosen before scheduling: a job may run before schedule returns
            AtomicLong keys = new AtomicLong();
            List<List<Accepted>> accepted = new ArrayList<>();
            CountDownLatch started = new CountDownLatch(THREADS);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                List<Accepted> mine = new ArrayList<>();
                accepted.add(mine);
                threads.add(new Thread(() -> {
                    started.countDown();
                    try {
                        while (true) {
                            long key = keys.incrementAndGet();
                            Duration delay = Duration.ofMillis(ThreadLocalRandom.current().nextInt(3));
                            mine.add(new Accepted(wheel.schedule(() -> ran.add(key), delay), key));
                        }
                    } catch (RejectedExecutionException stopped) {
                        // the stop has happened; this thread is done
                    }
                }));
            }
            threads.forEach(Thread::start);
            started.await();

            StopReport report = wheel.stopNow();
            for (Thread thread : threads) {
                thread.join();
            }

            Set<Long> discarded = ConcurrentHashMap.newKeySet();
            report.discarded().forEach(line -> discarded.add(line.id()));
            awaitTrue(() -> accepted.stream().flatMap(List::stream).allMatch(each -> each.job().state().isTerminal()),
                    Duration.ofSeconds(10));
            for (List<Accepted> mine : accepted) {
                for (Accepted each : mine) {
                    ScheduledJob job = each.job();
                    boolean done = job.state() == JobState.DONE;
                    assertThat(job.state()).as("job %d", job.id()).isIn(JobState.DONE, JobState.DISCARDED);
                    assertThat(ran.contains(each.key())).as("job %d ran", job.id()).isEqualTo(done);
                    assertThat(discarded.contains(job.id())).as("job %d reported discarded", job.id()).isEqualTo(!done);
                }
            }
        }
    }

    private record Accepted(ScheduledJob job, long key) {
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitTrue(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition met within %s", timeout).isLessThan(deadline);
            Thread.sleep(5); // polling interval, not a wait for things to settle
        }
    }
}
