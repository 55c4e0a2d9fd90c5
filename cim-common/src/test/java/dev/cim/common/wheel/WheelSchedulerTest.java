package dev.cim.common.wheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The scheduler driven by hand on a fake clock: no threads, no sleeps. */
class WheelSchedulerTest {

    private static final Duration TICK = Duration.ofMillis(10);

    private final FakeClock clock = new FakeClock();
    private final java.time.Instant START = clock.instant();
    private final List<String> ran = Collections.synchronizedList(new ArrayList<>());
    private final WheelScheduler wheel = builder().buildManual();

    private DelaySchedulerBuilder builder() {
        return DelayScheduler.builder().tick(TICK).slots(16).maxDelay(Duration.ofHours(1)).timeSource(clock);
    }

    private Job recording(String name) {
        return Job.of(name, () -> ran.add(name));
    }

    private void advance(Duration by) {
        clock.advance(by);
        wheel.advance();
    }

    @AfterEach
    void stop() {
        wheel.stopNow();
    }

    @Test
    void schedule_runsTheJobAtItsDueTickAndNotBefore() {
        wheel.schedule(recording("a"), Duration.ofMillis(25));

        advance(Duration.ofMillis(20));
        assertThat(ran).isEmpty();
        advance(Duration.ofMillis(4));
        assertThat(ran).as("24 ms in, 1 ms before due").isEmpty();
        advance(Duration.ofMillis(6));
        assertThat(ran).containsExactly("a");
    }

    @Test
    void schedule_zeroDelay_runsAtTheNextAdvance() {
        ScheduledJob job = wheel.schedule(recording("now"), Duration.ZERO);

        wheel.advance();

        assertThat(ran).containsExactly("now");
        assertThat(job.state()).isEqualTo(JobState.DONE);
        assertThat(wheel.pending()).isZero();
    }

    @Test
    void schedule_negativeDelay_runsLikeZeroAtTheNextAdvanceAndNotBeforeTheCall() {
        clock.advance(Duration.ofSeconds(3));
        ScheduledJob viaDuration = wheel.schedule(recording("duration"), Duration.ofSeconds(-5));
        ScheduledJob viaUnit = wheel.schedule(recording("unit"), -1, TimeUnit.MILLISECONDS);
        ScheduledJob hugelyNegative = wheel.schedule(recording("min"), Long.MIN_VALUE, TimeUnit.DAYS);

        assertThat(viaDuration.dueAt()).as("due at the call, not 5 s before it").isEqualTo(clock.instant());
        assertThat(viaUnit.dueAt()).isEqualTo(clock.instant());
        assertThat(hugelyNegative.dueAt()).isEqualTo(clock.instant());
        assertThat(wheel.nanosUntilAlarm()).as("the ticker is woken at once").isLessThanOrEqualTo(0);
        wheel.advance();

        assertThat(ran).containsExactlyInAnyOrder("duration", "unit", "min");
    }

    @Test
    void schedule_twoJobsInOneTick_eachRunsAtItsOwnDeadline() {
        // Both due within the tick from 20 to 30 ms: the first at 21 ms, the second at 28 ms.
        wheel.schedule(recording("21 ms"), Duration.ofMillis(21));
        wheel.schedule(recording("28 ms"), Duration.ofMillis(28));
        long resolution = wheel.resolutionNanos();
        assertThat(resolution).as("tick / slots, rounded down to a power of two").isEqualTo(1L << 19);

        advance(Duration.ofMillis(21).minusNanos(1));
        assertThat(ran).isEmpty();
        advance(Duration.ofNanos(resolution));
        assertThat(ran).as("within one resolution after 21 ms, not at the tick's end").containsExactly("21 ms");
        advance(Duration.ofMillis(28).minus(clockSinceStart()).minusNanos(1));
        assertThat(ran).containsExactly("21 ms");
        advance(Duration.ofNanos(resolution));
        assertThat(ran).containsExactly("21 ms", "28 ms");
    }

    @Test
    void nanosUntilAlarm_nothingScheduled_isForever() {
        assertThat(wheel.nanosUntilAlarm()).isEqualTo(Long.MAX_VALUE);
        wheel.advance();
        assertThat(wheel.nanosUntilAlarm()).isEqualTo(Long.MAX_VALUE);

        wheel.schedule(recording("soon"), Duration.ofMillis(5));
        advance(Duration.ofMillis(6));

        assertThat(ran).containsExactly("soon");
        assertThat(wheel.nanosUntilAlarm()).as("asleep again once nothing is pending").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void schedule_farFuture_isFiledWithinATickThenSleepsUntilItsNextCascade() {
        wheel.schedule(recording("far"), Duration.ofMinutes(30));

        assertThat(wheel.nanosUntilAlarm()).as("a pass to file it, a tick after the first schedule")
                .isEqualTo(TICK.toNanos());
        advance(TICK);
        assertThat(wheel.nanosUntilAlarm()).as("then asleep until the far job's next cascade, not the next tick")
                .isGreaterThan(Duration.ofSeconds(1).toNanos());
        wheel.schedule(recording("later"), Duration.ofMinutes(40));
        assertThat(wheel.nanosUntilAlarm()).as("a burst is filed once a tick, not once a job")
                .isEqualTo(TICK.toNanos());
    }

    @Test
    void schedule_dueBeforeTheAlarm_bringsTheAlarmForwardToItsOwnDeadline() {
        wheel.schedule(recording("far"), Duration.ofMinutes(30));
        advance(TICK);

        wheel.schedule(recording("near"), Duration.ofMillis(5));

        assertThat(wheel.nanosUntilAlarm()).as("woken for the near job's own deadline")
                .isEqualTo(Duration.ofMillis(5).toNanos());
        wheel.schedule(recording("later"), Duration.ofMinutes(1));
        assertThat(wheel.nanosUntilAlarm()).as("a later job leaves the alarm alone")
                .isEqualTo(Duration.ofMillis(5).toNanos());
        advance(Duration.ofMillis(5));
        assertThat(ran).as("run at its deadline: it reached the wheel after it").containsExactly("near");
    }

    @Test
    void advance_jobScheduledWhileThePassRuns_isNotSleptThrough() {
        // The job runs inline (this scheduler's executor is the calling thread) during the pass,
        // after the pass has taken the inbox and before it sets the alarm: the window in which a
        // worker thread's schedule would read an alarm about to be moved later.
        wheel.schedule(Job.of("schedules another", () -> wheel.schedule(recording("follow-up"), Duration.ofMillis(5))),
                Duration.ZERO);

        wheel.advance();

        assertThat(wheel.nanosUntilAlarm()).as("the follow-up's slot, not for ever")
                .isBetween(Duration.ofMillis(5).toNanos(), Duration.ofMillis(5).toNanos() + wheel.resolutionNanos());
        advance(Duration.ofNanos(wheel.nanosUntilAlarm()));
        assertThat(ran).containsExactly("follow-up");
    }

    @Test
    void advance_farFutureJob_wakesOnlyForItsCascadesNotEveryTick() {
        wheel.schedule(recording("in 59 min"), 59, TimeUnit.MINUTES);

        int wakeUps = 0;
        while (ran.isEmpty()) {
            long sleep = wheel.nanosUntilAlarm();
            assertThat(sleep).as("something is pending").isLessThan(Long.MAX_VALUE);
            advance(Duration.ofNanos(Math.max(0, sleep)));
            wakeUps++;
        }

        // 59 minutes at a 10 ms tick would be 354,000 ticks; here one pass per ring it crosses.
        assertThat(wakeUps).isLessThanOrEqualTo(6);
        assertThat(clockSinceStart()).isBetween(Duration.ofMinutes(59),
                Duration.ofMinutes(59).plusNanos(wheel.resolutionNanos()));
    }

    @Test
    void cancel_firstSinceAPass_wakesTheTickerAtOnce() {
        ScheduledJob far = wheel.schedule(recording("far"), Duration.ofMinutes(30));
        ScheduledJob other = wheel.schedule(recording("other"), Duration.ofMinutes(40));
        wheel.advance();
        assertThat(wheel.nanosUntilAlarm()).isGreaterThan(TICK.toNanos());

        far.cancel();
        other.cancel();

        assertThat(wheel.nanosUntilAlarm()).as("the bookkeeping is due now").isLessThanOrEqualTo(0);
        assertThat(wheel.pending()).as("counted at the next pass").isEqualTo(2);
        wheel.advance();
        assertThat(wheel.pending()).isZero();
        assertThat(wheel.nanosUntilAlarm()).as("nothing left to wake for").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void schedule_manyLapsAhead_runsExactlyOnceAtItsTime() {
        wheel.schedule(recording("far"), 59, TimeUnit.MINUTES);

        for (int minute = 1; minute < 59; minute++) {
            advance(Duration.ofMinutes(1));
        }
        assertThat(ran).isEmpty();
        advance(Duration.ofMinutes(1));
        advance(Duration.ofMinutes(1));

        assertThat(ran).containsExactly("far");
    }

    @Test
    void handle_reportsIdDueTimeDescriptionAndState() {
        ScheduledJob first = wheel.schedule(recording("first"), Duration.ofSeconds(5));
        ScheduledJob second = wheel.schedule(recording("second"), Duration.ofSeconds(1));

        assertThat(second.id()).isGreaterThan(first.id());
        assertThat(first.dueAt()).isEqualTo(clock.instant().plusSeconds(5));
        assertThat(first.description()).isEqualTo("first");
        assertThat(first.state()).isEqualTo(JobState.PENDING);
        assertThat(wheel.pending()).isEqualTo(2);
    }

    @Test
    void cancel_beforeDue_preventsTheRunAndReleasesTheJobAtOnce() {
        Runnable job = () -> ran.add("cancelled");
        WeakReference<Runnable> released = new WeakReference<>(job);
        ScheduledJob handle = wheel.schedule(job, Duration.ofMillis(30));
        job = null;

        assertThat(handle.cancel()).isTrue();
        assertThat(handle.cancel()).as("second cancel").isFalse();
        awaitCleared(released);
        advance(Duration.ofSeconds(1));

        assertThat(ran).isEmpty();
        assertThat(handle.state()).isEqualTo(JobState.CANCELLED);
        assertThat(wheel.pending()).isZero();
        assertThat(wheel.pendingJobs()).isEmpty();
    }

    @Test
    void cancel_aKeptCancelledHandle_holdsNoOtherEntryInMemory() {
        List<WeakReference<ScheduledJob>> others = new ArrayList<>();
        List<ScheduledJob> handles = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            handles.add(wheel.schedule(() -> { }, Duration.ofMinutes(10)));
        }
        wheel.advance(); // these are filed in buckets ...
        for (int i = 0; i < 200; i++) {
            handles.add(wheel.schedule(() -> { }, Duration.ofMinutes(10))); // ... these stay in the inbox
        }
        handles.forEach(ScheduledJob::cancel);
        ScheduledJob kept = handles.remove(handles.size() - 1); // the last cancelled heads the cancel chain
        ScheduledJob keptFiled = handles.remove(0);
        handles.forEach(handle -> others.add(new WeakReference<>(handle)));
        handles.clear();

        advance(TICK);

        others.forEach(WheelSchedulerTest::awaitCleared);
        assertThat(kept.state()).isEqualTo(JobState.CANCELLED);
        assertThat(keptFiled.state()).isEqualTo(JobState.CANCELLED);
        assertThat(wheel.pending()).isZero();
    }

    @Test
    void cancel_afterTheJobRan_returnsFalse() {
        ScheduledJob handle = wheel.schedule(recording("done"), Duration.ofMillis(10));
        advance(Duration.ofMillis(10));

        assertThat(handle.cancel()).isFalse();
        assertThat(handle.state()).isEqualTo(JobState.DONE);
        assertThat(ran).containsExactly("done");
    }

    @Test
    void cancel_onlyTheCancelledJobOfManyWithTheSameDueTime() {
        ScheduledJob a = wheel.schedule(recording("a"), Duration.ofMillis(50));
        wheel.schedule(recording("b"), Duration.ofMillis(50));
        wheel.schedule(recording("c"), Duration.ofMillis(50));

        a.cancel();
        advance(Duration.ofMillis(50));

        assertThat(ran).containsExactlyInAnyOrder("b", "c");
    }

    @Test
    void failingJob_isLoggedWithItsDescriptionAndOthersStillRun() {
        ListAppender<ILoggingEvent> logged = capture();
        ScheduledJob bad = wheel.schedule(Job.of("explodes", () -> {
            throw new IllegalStateException("boom");
        }), Duration.ofMillis(10));
        wheel.schedule(recording("ok"), Duration.ofMillis(10));

        advance(Duration.ofMillis(10));
        wheel.schedule(recording("later"), Duration.ofMillis(10));
        advance(Duration.ofMillis(10));

        assertThat(ran).containsExactly("ok", "later");
        assertThat(bad.state()).isEqualTo(JobState.FAILED);
        assertThat(logged.list).anySatisfy(event -> {
            assertThat(event.getFormattedMessage()).contains("explodes").contains(String.valueOf(bad.id()));
            assertThat(event.getThrowableProxy().getMessage()).isEqualTo("boom");
        });
    }

    @Test
    void dueJobRefusedByTheWorkerExecutor_isDiscardedAndLoggedWithItsDescription() {
        ListAppender<ILoggingEvent> logged = capture();
        WheelScheduler refusing = builder().executor(task -> {
            throw new RejectedExecutionException("pool full");
        }).buildManual();
        ScheduledJob job = refusing.schedule(recording("refused"), Duration.ofMillis(10));

        clock.advance(Duration.ofMillis(10));
        refusing.advance();

        assertThat(job.state()).isEqualTo(JobState.DISCARDED);
        assertThat(refusing.pending()).isZero();
        assertThat(ran).isEmpty();
        assertThat(logged.list).anySatisfy(event -> assertThat(event.getFormattedMessage()).contains("(refused)"));
    }

    @Test
    void dueJobWhoseHandOffThrows_isDiscardedAndLoggedAndTheRestOfItsSlotStillRuns() {
        // Before the fix the exception left the pass with the rest of the bucket detached: those
        // jobs never ran and never left pending().
        ListAppender<ILoggingEvent> logged = capture();
        int[] handOffs = {0};
        WheelScheduler failing = builder().executor(task -> {
            if (++handOffs[0] == 2) {
                throw new IllegalStateException("executor broken for one call");
            }
            task.run();
        }).buildManual();
        List<ScheduledJob> jobs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            jobs.add(failing.schedule(recording("job " + i), Duration.ofMillis(30)));
        }
        failing.advance(); // all five filed in one bucket

        clock.advance(Duration.ofMillis(30));
        failing.advance();

        assertThat(ran).hasSize(4);
        assertThat(jobs).extracting(ScheduledJob::state).containsOnly(JobState.DONE, JobState.DISCARDED)
                .filteredOn(state -> state == JobState.DISCARDED).hasSize(1);
        assertThat(failing.pending()).isZero();
        assertThat(logged.list).anySatisfy(event -> assertThat(event.getFormattedMessage()).contains("refused"));
    }

    @Test
    void dueJobWhoseHandOffThrowsAnError_staysPendingAndRunsAtTheNextPassWithTheRest() {
        int[] handOffs = {0};
        WheelScheduler failing = builder().executor(task -> {
            if (++handOffs[0] == 2) {
                throw new OutOfMemoryError("unable to create native thread: simulated");
            }
            task.run();
        }).buildManual();
        List<ScheduledJob> jobs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            jobs.add(failing.schedule(recording("job " + i), Duration.ofMillis(30)));
        }
        failing.advance();
        clock.advance(Duration.ofMillis(30));

        assertThatThrownBy(failing::advance).isInstanceOf(OutOfMemoryError.class);
        assertThat(ran).hasSize(1);
        assertThat(failing.nanosUntilAlarm()).as("the pass is to be made again").isLessThanOrEqualTo(0);
        failing.advance();

        assertThat(ran).containsExactlyInAnyOrder("job 0", "job 1", "job 2", "job 3", "job 4");
        assertThat(jobs).extracting(ScheduledJob::state).containsOnly(JobState.DONE);
        assertThat(failing.pending()).isZero();
    }

    @Test
    void dueJobArrivingWithAHandOffThatThrowsAnError_isKeptInTheInbox() {
        int[] handOffs = {0};
        WheelScheduler failing = builder().executor(task -> {
            if (++handOffs[0] == 1) {
                throw new OutOfMemoryError("unable to create native thread: simulated");
            }
            task.run();
        }).buildManual();
        for (int i = 0; i < 3; i++) {
            failing.schedule(recording("now " + i), Duration.ZERO); // fired straight from the inbox
        }

        assertThatThrownBy(failing::advance).isInstanceOf(OutOfMemoryError.class);
        failing.advance();

        assertThat(ran).containsExactlyInAnyOrder("now 0", "now 1", "now 2");
        assertThat(failing.pending()).isZero();
    }

    @Test
    void build_startsNoThreadUntilTheFirstSchedule() throws Exception {
        String prefix = "lazy-wheel-" + System.nanoTime();
        DelayScheduler lazy = DelayScheduler.builder().tick(Duration.ofMillis(1)).threadNamePrefix(prefix).build();
        try {
            assertThat(threadsNamed(prefix)).as("after construction").isEmpty();

            lazy.schedule(recording("far"), Duration.ofMinutes(5));
            assertThat(threadsNamed(prefix)).as("after the first schedule").containsExactly(prefix + "-ticker");

            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            lazy.schedule(done::countDown, Duration.ZERO);
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(threadsNamed(prefix)).as("a worker once a job was due")
                    .containsExactlyInAnyOrder(prefix + "-ticker", prefix + "-worker-1");
        } finally {
            lazy.stopNow();
        }
        assertThat(threadsNamed(prefix + "-ticker")).as("the ticker ends with the stop").isEmpty();
    }

    @Test
    void stopNow_beforeAnySchedule_neverStartsAThread() {
        String prefix = "never-wheel-" + System.nanoTime();
        DelayScheduler unused = DelayScheduler.builder().threadNamePrefix(prefix).build();

        assertThat(unused.stopNow().isComplete()).isTrue();
        assertThatThrownBy(() -> unused.schedule(recording("late"), Duration.ZERO))
                .isInstanceOf(RejectedExecutionException.class);
        assertThat(threadsNamed(prefix)).isEmpty();
    }

    @Test
    void pendingJobs_listsWaitingJobsInDueOrder() {
        wheel.schedule(recording("third"), Duration.ofSeconds(30));
        ScheduledJob first = wheel.schedule(recording("first"), Duration.ofSeconds(1));
        wheel.schedule(recording("second"), Duration.ofSeconds(2));
        wheel.advance(); // some filed in the wheel ...
        wheel.schedule(recording("fourth"), Duration.ofMinutes(5)); // ... one still in the inbox

        assertThat(wheel.pendingJobs()).extracting(PendingJob::description)
                .containsExactly("first", "second", "third", "fourth");
        assertThat(wheel.pendingJobs().get(0)).isEqualTo(new PendingJob(first.id(), first.dueAt(), "first"));
    }

    @Test
    void stopNow_discardsPendingJobsAndReportsThem() {
        wheel.schedule(recording("x"), Duration.ofSeconds(2));
        ScheduledJob y = wheel.schedule(recording("y"), Duration.ofSeconds(1));
        wheel.advance();

        StopReport report = wheel.stopNow();
        advance(Duration.ofSeconds(5));

        assertThat(report.discarded()).extracting(PendingJob::description).containsExactly("y", "x");
        assertThat(report.stillRunning()).isZero();
        assertThat(y.state()).isEqualTo(JobState.DISCARDED);
        assertThat(ran).isEmpty();
        assertThat(wheel.pending()).isZero();
        assertThat(wheel.stopNow().isComplete()).as("a second stop has nothing left").isTrue();
    }

    @Test
    void drain_runsPendingJobsAtTheirTimeThenStops() throws Exception {
        wheel.schedule(recording("soon"), Duration.ofMillis(100));
        wheel.schedule(recording("later"), Duration.ofMillis(300));
        ExecutorService drainer = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<StopReport> report = CompletableFuture.supplyAsync(() -> drain(Duration.ofSeconds(10)), drainer);
            awaitRejecting();
            for (int i = 0; i < 40 && !report.isDone(); i++) {
                advance(Duration.ofMillis(10));
                assertThat(ran.size()).isLessThanOrEqualTo(i >= 29 ? 2 : i >= 9 ? 1 : 0);
            }

            assertThat(report.get(10, TimeUnit.SECONDS).isComplete()).isTrue();
            assertThat(ran).containsExactly("soon", "later");
        } finally {
            drainer.shutdownNow();
        }
    }

    @Test
    void drain_timeoutPassed_discardsWhatIsLeftAndReportsIt() throws Exception {
        wheel.schedule(recording("soon"), Duration.ofMillis(10));
        wheel.schedule(recording("too late"), Duration.ofMinutes(10));
        advance(Duration.ofMillis(10));

        StopReport report = wheel.drain(Duration.ZERO);

        assertThat(ran).containsExactly("soon");
        assertThat(report.discarded()).extracting(PendingJob::description).containsExactly("too late");
        assertThat(report.isComplete()).isFalse();
    }

    @Test
    void drain_everyJobLeftDueAfterTheTimeout_returnsWithoutWaiting() throws Exception {
        wheel.schedule(recording("tomorrow"), Duration.ofMinutes(50));

        StopReport report = wheel.drain(Duration.ofMinutes(10)); // the fake clock never moves

        assertThat(report.discarded()).extracting(PendingJob::description).containsExactly("tomorrow");
    }

    @Test
    void schedule_afterAStop_isRejected() {
        wheel.stopNow();

        assertThatThrownBy(() -> wheel.schedule(recording("late"), Duration.ZERO))
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("stopped");
    }

    @Test
    void schedule_pastTheCapOnPendingJobs_isRejectedNamingTheCap() {
        WheelScheduler capped = builder().maxPending(2).buildManual();
        capped.schedule(recording("1"), Duration.ofSeconds(1));
        ScheduledJob second = capped.schedule(recording("2"), Duration.ofSeconds(1));

        assertThatThrownBy(() -> capped.schedule(recording("3"), Duration.ofSeconds(1)))
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("cap is 2");
        second.cancel();
        capped.advance(); // a cancelled job leaves the count at the next tick
        capped.schedule(recording("4"), Duration.ofSeconds(1));
        assertThat(capped.pending()).isEqualTo(2);
    }

    @Test
    void schedule_badArguments_failWithWhatWasExpected() {
        assertThatThrownBy(() -> wheel.schedule(recording("long"), Duration.ofHours(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected: at most PT1H, the maximum delay").hasMessageContaining("PT2H");
        assertThatThrownBy(() -> wheel.schedule(recording("long"), 61, TimeUnit.MINUTES))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("61 minutes");
        assertThatThrownBy(() -> wheel.schedule(recording("huge"), Long.MAX_VALUE, TimeUnit.DAYS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maximum delay");
        assertThatThrownBy(() -> wheel.schedule(null, Duration.ZERO))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("job (expected");
        assertThatThrownBy(() -> wheel.schedule(recording("no delay"), null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("delay (expected");
    }

    @Test
    void builder_badSettings_failWithWhatWasExpected() {
        assertThatThrownBy(() -> DelayScheduler.builder().slots(100))
                .hasMessage("slots (expected: a power of two >= 2): 100");
        assertThatThrownBy(() -> DelayScheduler.builder().slots(1))
                .hasMessage("slots (expected: a power of two >= 2): 1");
        assertThatThrownBy(() -> DelayScheduler.builder().tick(Duration.ofNanos(999_999)))
                .hasMessageContaining("tick (expected: at least 1ms)");
        assertThatThrownBy(() -> DelayScheduler.builder().workerThreads(0))
                .hasMessageContaining("workerThreads (expected: >= 1)");
        assertThatThrownBy(() -> DelayScheduler.builder().maxPending(-1))
                .hasMessageContaining("maxPending (expected: >= 0");
        assertThatThrownBy(() -> DelayScheduler.builder().maxDelay(Duration.ofDays(40_000)))
                .hasMessageContaining("maxDelay (expected: from 1ms to");
        assertThatThrownBy(() -> DelayScheduler.builder().tick(Duration.ofSeconds(2)).maxDelay(Duration.ofSeconds(1)).build())
                .hasMessageContaining("maxDelay (expected: at least the tick");
    }

    private Duration clockSinceStart() {
        return Duration.between(START, clock.instant());
    }

    private static List<String> threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(name -> name.startsWith(prefix)).sorted().toList();
    }

    private StopReport drain(Duration timeout) {
        try {
            return wheel.drain(timeout);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private void awaitRejecting() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try {
                wheel.schedule(recording("probe"), Duration.ofHours(1)).cancel();
            } catch (RejectedExecutionException draining) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("the scheduler never started draining");
    }

    private static void awaitCleared(WeakReference<?> reference) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (reference.get() != null) {
            assertThat(System.nanoTime()).as("job released within 10 s").isLessThan(deadline);
            System.gc();
        }
    }

    private static ListAppender<ILoggingEvent> capture() {
        Logger logger = (Logger) LoggerFactory.getLogger(DelayScheduler.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        return appender;
    }
}
