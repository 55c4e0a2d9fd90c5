package dev.cim.benchmark.conventions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.DelaySchedulerBuilder;
import dev.cim.common.wheel.JobState;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Netty's {@code HashedWheelTimerTest} (netty/netty, {@code common/src/test/java/io/netty/util/
 * HashedWheelTimerTest.java}, Copyright 2013 The Netty Project, Apache License 2.0), its scenarios
 * and assertions ported to our wheel behind {@link WheelAsNettyTimer}: same intent, our own code.
 * Netty's {@code new HashedWheelTimer()} is a 100 ms tick and 512 slots; so is {@link #timer()}.
 *
 * <p>Where the wheel differs from {@code HashedWheelTimer} on purpose, the test is kept and asserts
 * our behaviour, with a comment saying why:
 * <ul>
 *   <li>scheduling after a stop throws {@link RejectedExecutionException}, the
 *       {@code ScheduledExecutorService} convention, where Netty throws {@code IllegalStateException};</li>
 *   <li>jobs a stop drops are {@code DISCARDED} (a stop is not their owner's cancel), where Netty marks
 *       them cancelled; both mean the job never runs;</li>
 *   <li>a delay beyond the maximum delay is refused, where Netty accepts {@code Long.MAX_VALUE} ms;</li>
 *   <li>a cancelled job leaves the pending count within a tick, so the tests wait for the count
 *       (a condition with a deadline) where Netty's sleep for a few ticks.</li>
 * </ul>
 * Netty's {@code cancelWillCallCallback} is not ported: it carries no {@code @Test} in Netty and
 * relies on a {@code TimerTask.cancelled} callback that Netty 4.1's {@code TimerTask} does not have.
 * Netty's tests wait on real time; here no test sleeps to let things settle (waits are on latches
 * and conditions with deadlines), and "not before" checks use a witness job instead of a long sleep.
 * Bounds on how late a job may run hold on a quiet machine only, so they are not checked here, in
 * every build, but by {@link HashedWheelTimerTimingTest}, which runs apart ({@code -Ptiming}).
 */
class HashedWheelTimerConventionsTest {

    private final List<Timer> timers = new ArrayList<>();

    @AfterEach
    void stopAll() {
        timers.forEach(Timer::stop);
    }

    private WheelAsNettyTimer timer() {
        return timer(DelayScheduler.builder().tick(Duration.ofMillis(100)).slots(512));
    }

    private WheelAsNettyTimer timer(DelaySchedulerBuilder builder) {
        WheelAsNettyTimer timer = new WheelAsNettyTimer(builder.maxDelay(Duration.ofDays(1)).build());
        timers.add(timer);
        return timer;
    }

    @Test
    void newTimeout_tenSecondDelay_doesNotRunBeforeIt() throws Exception {
        // Netty: testScheduleTimeoutShouldNotRunBeforeDelay (waits 3 s on the latch).
        Timer timer = timer();
        CountDownLatch barrier = new CountDownLatch(1);
        Timeout timeout = timer.newTimeout(t -> {
            barrier.countDown();
            fail("This should not have run");
        }, 10, TimeUnit.SECONDS);
        CountDownLatch witness = new CountDownLatch(1);
        timer.newTimeout(t -> witness.countDown(), 1, TimeUnit.SECONDS);

        assertThat(witness.await(10, TimeUnit.SECONDS)).as("a job due 9 s earlier ran").isTrue();
        assertThat(barrier.getCount()).as("the 10 s job, 9 s early").isEqualTo(1);
        assertThat(timeout.isExpired()).as("timer should not expire").isFalse();
    }

    @Test
    void newTimeout_shortDelay_runsAfterItAndExpires() throws Exception {
        // Netty: testScheduleTimeoutShouldRunAfterDelay (a 2 s delay; 200 ms keeps the intent).
        Timer timer = timer();
        CountDownLatch barrier = new CountDownLatch(1);
        long start = System.nanoTime();
        Timeout timeout = timer.newTimeout(t -> barrier.countDown(), 200, TimeUnit.MILLISECONDS);

        assertThat(barrier.await(10, TimeUnit.SECONDS)).as("ran within 10 s, a bound no busy machine reaches").isTrue();
        assertThat(System.nanoTime() - start).as("not before the delay").isGreaterThanOrEqualTo(200_000_000L);
        awaitTrue(timeout::isExpired, "timer should expire");
    }

    @Test
    void stop_reportsNoTimeoutOnceAllRanAndEveryOneThatHasNot() throws Exception {
        // Netty: testStopTimer (sleeps 1 s before the second stop; nothing here needs it).
        CountDownLatch latch = new CountDownLatch(3);
        Timer processed = timer();
        for (int i = 0; i < 3; i++) {
            processed.newTimeout(t -> latch.countDown(), 1, TimeUnit.MILLISECONDS);
        }
        assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(processed.stop()).as("Number of unprocessed timeouts should be 0").isEmpty();

        Timer unprocessed = timer();
        for (int i = 0; i < 5; i++) {
            unprocessed.newTimeout(t -> { }, 5, TimeUnit.SECONDS);
        }
        assertThat(unprocessed.stop()).as("Number of unprocessed timeouts should be greater than 0").hasSize(5);
    }

    @Test
    void newTimeout_afterStop_isRejected() throws Exception {
        // Netty: testTimerShouldThrowExceptionAfterShutdownForNewTimeouts. Netty throws
        // IllegalStateException; ours throws RejectedExecutionException on purpose, as an
        // ExecutorService does after shutdown.
        CountDownLatch latch = new CountDownLatch(3);
        Timer timer = timer();
        for (int i = 0; i < 3; i++) {
            timer.newTimeout(t -> latch.countDown(), 1, TimeUnit.MILLISECONDS);
        }
        assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        timer.stop();

        assertThatThrownBy(() -> timer.newTimeout(t -> { }, 1, TimeUnit.MILLISECONDS))
                .isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void newTimeout_fromInsideATask_keepsGoingRoundTheWheel() throws Exception {
        // Netty: testTimerOverflowWheelLength (100 ms tick, 32 slots).
        WheelAsNettyTimer timer = timer(DelayScheduler.builder().tick(Duration.ofMillis(100)).slots(32));
        CountDownLatch latch = new CountDownLatch(3);
        timer.newTimeout(new TimerTask() {
            @Override
            public void run(Timeout timeout) {
                timer.newTimeout(this, 100, TimeUnit.MILLISECONDS);
                latch.countDown();
            }
        }, 100, TimeUnit.MILLISECONDS);

        assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(timer.stop()).isNotEmpty();
    }

    @Test
    void newTimeout_100000Timeouts_eachRunsAndNoneBeforeItsDelay() throws Exception {
        // Netty: testExecutionOnTime (200 ms tick, 125 ms timeouts, each within [125, 650) ms). Only
        // its lower bound, a promise that holds however busy the machine is, is checked here; the
        // upper one, a bound on lateness, is HashedWheelTimerTimingTest's, run apart (-Ptiming).
        List<Long> delays = ExecutionOnTime.run(timer(DelayScheduler.builder().tick(Duration.ofMillis(ExecutionOnTime.TICK))));

        assertThat(delays).hasSize(ExecutionOnTime.TIMEOUTS);
        assertThat(Collections.min(delays)).as("the earliest, in ms after it was scheduled")
                .isGreaterThanOrEqualTo(ExecutionOnTime.TIMEOUT);
    }

    @Test
    void newTimeout_givenTaskExecutor_runsTheTaskOnIt() throws Exception {
        // Netty: testExecutionOnTaskExecutor.
        CountDownLatch latch = new CountDownLatch(1);
        CountDownLatch timeoutLatch = new CountDownLatch(1);
        Executor executor = command -> {
            try {
                command.run();
            } finally {
                latch.countDown();
            }
        };
        Timer timer = timer(DelayScheduler.builder().tick(Duration.ofMillis(100)).slots(32).executor(executor));
        timer.newTimeout(t -> timeoutLatch.countDown(), 10, TimeUnit.MILLISECONDS);

        assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(timeoutLatch.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void newTimeout_pastMaxPendingBackToBack_isRejected() {
        // Netty: testRejectedExecutionExceptionWhenTooManyTimeoutsAreAddedBackToBack (maxPendingTimeouts 2).
        Timer timer = timer(DelayScheduler.builder().tick(Duration.ofMillis(100)).slots(32).maxPending(2));
        timer.newTimeout(t -> { }, 5, TimeUnit.SECONDS);
        timer.newTimeout(t -> { }, 5, TimeUnit.SECONDS);

        assertThatThrownBy(() -> timer.newTimeout(t -> { }, 1, TimeUnit.MILLISECONDS))
                .as("Timer allowed adding 3 timeouts when maxPendingTimeouts was 2")
                .isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void newTimeout_afterACancelFreesAPendingSlot_isAccepted() throws Exception {
        // Netty: testNewTimeoutShouldStopThrowingRejectedExecutionExceptionWhenExistingTimeoutIsCancelled.
        // Netty sleeps five ticks for the cancel to be counted; ours counts it within one tick, so
        // the test waits for the count instead.
        WheelAsNettyTimer timer = timer(DelayScheduler.builder().tick(Duration.ofMillis(100)).slots(32).maxPending(2));
        timer.newTimeout(t -> { }, 5, TimeUnit.SECONDS);
        Timeout timeoutToCancel = timer.newTimeout(t -> { }, 5, TimeUnit.SECONDS);
        assertThat(timeoutToCancel.cancel()).isTrue();
        awaitTrue(() -> timer.pendingTimeouts() == 1, "the cancel counted");

        CountDownLatch secondLatch = new CountDownLatch(1);
        timer.newTimeout(t -> secondLatch.countDown(), 90, TimeUnit.MILLISECONDS);

        assertThat(secondLatch.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void newTimeout_afterATimeoutRanAndFreedAPendingSlot_isAccepted() throws Exception {
        // Netty: testNewTimeoutShouldStopThrowingRejectedExecutionExceptionWhenExistingTimeoutIsExecuted
        // (25 ms tick, 4 slots). A job leaves the count when it has finished, a moment after its
        // latch opens, so the test waits for that.
        WheelAsNettyTimer timer = timer(DelayScheduler.builder().tick(Duration.ofMillis(25)).slots(4).maxPending(2));
        CountDownLatch latch = new CountDownLatch(1);
        timer.newTimeout(t -> { }, 5, TimeUnit.SECONDS);
        timer.newTimeout(t -> latch.countDown(), 90, TimeUnit.MILLISECONDS);
        assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        awaitTrue(() -> timer.pendingTimeouts() == 1, "the finished job counted");

        CountDownLatch secondLatch = new CountDownLatch(1);
        timer.newTimeout(t -> secondLatch.countDown(), 90, TimeUnit.MILLISECONDS);

        assertThat(secondLatch.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void pendingTimeouts_countsScheduledAndForgetsCancelledAndRun() throws Exception {
        // Netty: reportPendingTimeouts. Netty's count is exact once the 90 ms task has run; ours
        // counts cancels within a tick and a job once it has finished, so the last check waits.
        WheelAsNettyTimer timer = timer();
        CountDownLatch latch = new CountDownLatch(1);
        Timeout t1 = timer.newTimeout(t -> { }, 100, TimeUnit.MINUTES);
        Timeout t2 = timer.newTimeout(t -> { }, 100, TimeUnit.MINUTES);
        timer.newTimeout(t -> latch.countDown(), 90, TimeUnit.MILLISECONDS);

        assertThat(timer.pendingTimeouts()).isEqualTo(3);
        t1.cancel();
        t2.cancel();
        assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();

        awaitTrue(() -> timer.pendingTimeouts() == 0, "nothing pending");
    }

    @Test
    void newTimeout_longMaxValueMillis_isRefusedAsBeyondTheMaximumDelay() {
        // Netty: testOverflow. Netty accepts Long.MAX_VALUE ms (and never runs it); ours refuses any
        // delay beyond its maximum delay (a day here, 30 days by default) on purpose: a bound keeps
        // the number of rings, and the deadline arithmetic, small and exact.
        Timer timer = timer();

        assertThatThrownBy(() -> timer.newTimeout(t -> fail("ran"), Long.MAX_VALUE, TimeUnit.MILLISECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maximum delay");
    }

    @Test
    void stop_hasPendingTimeouts_returnsThemAndNoneWillRun() {
        // Netty: testStopTimerCancelsPendingTasks (sleeps 1 s first; nothing here needs it). Netty
        // marks them cancelled; ours marks them DISCARDED on purpose: the owner did not cancel them,
        // a stop dropped them, and the stop's report lists them as such. Either way none runs.
        Timer timer = timer();
        for (int i = 0; i < 5; i++) {
            timer.newTimeout(t -> fail("ran after the stop"), 5, TimeUnit.SECONDS);
        }

        Set<Timeout> unprocessed = timer.stop();

        assertThat(unprocessed).hasSize(5);
        for (Timeout timeout : unprocessed) {
            assertThat(((WheelAsNettyTimer.WheelTimeout) timeout).state()).isEqualTo(JobState.DISCARDED);
            assertThat(timeout.isExpired()).isFalse();
        }
    }

    @Test
    void pendingTimeouts_cancelledInTheSlotBeingRun_areCountedOnce() throws Exception {
        // Netty: testPendingTimeoutsShouldBeCountedCorrectlyWhenTimeoutCancelledWithinGoalTick. Netty's
        // first task sleeps 1 s on the timer's only thread; ours runs jobs on workers, so the first
        // one waits for the test's signal instead, and the test waits for the count, not 2 s.
        WheelAsNettyTimer timer = timer();
        CountDownLatch barrier = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        timer.newTimeout(t -> {
            barrier.countDown();
            release.await(10, TimeUnit.SECONDS);
        }, 200, TimeUnit.MILLISECONDS);
        List<Timeout> timeouts = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            timeouts.add(timer.newTimeout(t -> { }, 200, TimeUnit.MILLISECONDS));
        }
        assertThat(barrier.await(10, TimeUnit.SECONDS)).isTrue();
        // The others fell due in the same slot: some may have run already, the rest are cancelled.
        timeouts.forEach(Timeout::cancel);
        release.countDown();

        awaitTrue(() -> timer.pendingTimeouts() == 0, "nothing pending");
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within 10 s", what).isLessThan(deadline);
            Thread.sleep(5); // polling interval, not a wait for things to settle
        }
    }
}
