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
        assertThatThrownBy(() -> wheel.schedule(recording("neg"), Duration.ofSeconds(-5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected: 0 <= delay <= PT1H").hasMessageContaining("PT-5S");
        assertThatThrownBy(() -> wheel.schedule(recording("neg"), -1, TimeUnit.MILLISECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1 milliseconds");
        assertThatThrownBy(() -> wheel.schedule(recording("long"), Duration.ofHours(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maximum delay");
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
