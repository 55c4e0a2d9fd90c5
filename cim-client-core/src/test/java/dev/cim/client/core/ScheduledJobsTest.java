package dev.cim.client.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.JobState;
import dev.cim.common.wheel.PendingJob;
import dev.cim.common.wheel.ScheduledJob;
import dev.cim.common.wheel.StopReport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The near-window jobs of scheduled messages, on a fake wheel whose jobs the test fires by hand and a
 * fake I/O thread whose tasks the test runs by hand.
 */
class ScheduledJobsTest {

    private static final Instant NOW = Instant.parse("2027-03-27T10:00:00Z");
    private static final Duration WINDOW = Duration.ofHours(1);

    private final FakeWheel wheel = new FakeWheel();
    private int wheelAsked;
    private final Queue<Runnable> loop = new ArrayDeque<>();
    private final List<String> released = new ArrayList<>();
    private final ScheduledJobs jobs = new ScheduledJobs(() -> {
        wheelAsked++;
        return wheel;
    }, Clock.fixed(NOW, ZoneOffset.UTC), WINDOW, loop::add, released::add);

    @Test
    void changed_scheduledWithinTheWindow_holdsAJobDueThen() {
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-1", NOW.plus(Duration.ofMinutes(10))));

        assertThat(jobs.size()).isEqualTo(1);
        assertThat(wheel.jobs).singleElement().extracting(FakeJob::delay).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void changed_scheduledPastTheWindow_holdsNoJobAndLeavesTheWheelAlone() {
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-1", NOW.plus(WINDOW).plusMillis(1)));

        assertThat(jobs.size()).isZero();
        assertThat(wheelAsked).as("the wheel is made only for a first job").isZero();
    }

    @Test
    void changed_dueAlready_holdsAJobThatFiresAtOnce() {
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-1", NOW.minusSeconds(5)));

        // The wheel runs a job whose delay is not positive at once (as an executor does).
        assertThat(wheel.jobs).singleElement().extracting(FakeJob::delay).isEqualTo(Duration.ofSeconds(-5));
    }

    @Test
    void jobFires_releasesTheMessageOnTheIoThread_once() {
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-1", NOW.plusSeconds(30)));

        wheel.jobs.get(0).fire();
        assertThat(released).as("not on the wheel's thread").isEmpty();
        runLoop();

        assertThat(released).containsExactly("a-1");
        assertThat(jobs.size()).isZero();
        wheel.jobs.get(0).fire();
        runLoop();
        assertThat(released).as("a job fires once").containsExactly("a-1");
    }

    @Test
    void jobsDueTogether_firingInAnyOrder_releaseInTheOrderScheduled_andSoonestFirst() {
        Instant due = NOW.plusSeconds(30);
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-3", 3, due));
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-1", 1, due));
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-0", 4, due.minusMillis(10)));
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-2", 2, due));
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-9", 9, due.plusMillis(10)));

        // The wheel's workers run the jobs due together in any order: here the third first.
        wheel.jobs.get(0).fire();
        wheel.jobs.get(1).fire();
        runLoop();

        assertThat(released).containsExactly("a-0", "a-1", "a-2", "a-3");
        assertThat(jobs.size()).as("the later one waits for its own time").isEqualTo(1);
    }

    @Test
    void changed_cancelledOrSent_dropsTheJob() {
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-1", NOW.plusSeconds(30)));
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-2", NOW.plusSeconds(40)));

        jobs.changed(ScheduledChange.Kind.CANCELLED, message("a-1", NOW.plusSeconds(30)));
        jobs.changed(ScheduledChange.Kind.SENT, message("a-2", NOW.plusSeconds(40)));

        assertThat(jobs.size()).isZero();
        assertThat(wheel.jobs).allMatch(FakeJob::cancelled);
    }

    @Test
    void jobFiredWhileItsCancelWasOnTheWay_releasesNothing() {
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-1", NOW.plusSeconds(30)));

        wheel.jobs.get(0).fire(); // the wheel ran it; its release waits for the I/O thread
        jobs.changed(ScheduledChange.Kind.CANCELLED, message("a-1", NOW.plusSeconds(30)));
        runLoop();

        assertThat(released).isEmpty();
    }

    @Test
    void changed_editedText_keepsTheJob_editedDueTime_replacesIt() {
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-1", NOW.plusSeconds(30)));

        jobs.changed(ScheduledChange.Kind.EDITED, message("a-1", NOW.plusSeconds(30)));
        assertThat(wheel.jobs).hasSize(1);

        jobs.changed(ScheduledChange.Kind.EDITED, message("a-1", NOW.plusSeconds(90)));
        assertThat(wheel.jobs).hasSize(2);
        assertThat(wheel.jobs.get(0).cancelled()).isTrue();
        assertThat(wheel.jobs.get(1).delay()).isEqualTo(Duration.ofSeconds(90));
        assertThat(jobs.size()).isEqualTo(1);

        jobs.changed(ScheduledChange.Kind.EDITED, message("a-1", NOW.plus(Duration.ofHours(3))));
        assertThat(wheel.jobs.get(1).cancelled()).as("moved out of the window").isTrue();
        assertThat(jobs.size()).isZero();
    }

    @Test
    void jobFiredWhileAMoveWasOnTheWay_releasesOnlyAtTheNewTime() {
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-1", NOW.plusSeconds(30)));

        wheel.jobs.get(0).fire(); // due; its release waits for the I/O thread
        jobs.changed(ScheduledChange.Kind.EDITED, message("a-1", NOW.plusSeconds(600)));
        runLoop();

        assertThat(released).as("the old job's firing is stale").isEmpty();
        assertThat(jobs.size()).isEqualTo(1);
        wheel.jobs.get(1).fire();
        runLoop();
        assertThat(released).containsExactly("a-1");
    }

    @Test
    void nearTerm_holdsTheListed_andDropsTheUnlistedDueBeforeItsBound() {
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("gone", NOW.plus(Duration.ofMinutes(10))));
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("later", NOW.plus(Duration.ofMinutes(50))));
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("kept", NOW.plus(Duration.ofMinutes(20))));
        FakeJob keptJob = wheel.jobs.get(2);

        jobs.nearTerm(List.of(message("kept", NOW.plus(Duration.ofMinutes(20))),
                message("new", NOW.plus(Duration.ofMinutes(5)))), NOW.plus(Duration.ofMinutes(30)));

        assertThat(jobs.size()).as("kept, new, and later (due after the list's bound)").isEqualTo(3);
        assertThat(wheel.jobs.get(0).cancelled()).as("gone: sent or cancelled while away").isTrue();
        assertThat(keptJob.cancelled()).isFalse();
        assertThat(wheel.jobs).as("kept keeps its job").hasSize(4);
    }

    @Test
    void close_cancelsEveryJob() {
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-1", NOW.plusSeconds(30)));
        jobs.changed(ScheduledChange.Kind.SCHEDULED, message("a-2", NOW.plusSeconds(40)));

        jobs.close();

        assertThat(jobs.size()).isZero();
        assertThat(wheel.jobs).allMatch(FakeJob::cancelled);
    }

    private void runLoop() {
        Runnable task;
        while ((task = loop.poll()) != null) {
            task.run();
        }
    }

    private static ScheduledMessage message(String id, Instant due) {
        return message(id, 1, due);
    }

    private static ScheduledMessage message(String id, long number, Instant due) {
        return new ScheduledMessage(id, number, Recipient.user("bob"), "hi", due, Duration.between(NOW, due).abs());
    }

    /** A job the test fires by hand. */
    private static final class FakeJob implements ScheduledJob {
        private final Runnable action;
        private final Duration delay;
        private boolean cancelled;

        FakeJob(Runnable action, Duration delay) {
            this.action = action;
            this.delay = delay;
        }

        Duration delay() {
            return delay;
        }

        boolean cancelled() {
            return cancelled;
        }

        /** Runs the job as the wheel would (a wheel that lost the race with a cancel runs it too). */
        void fire() {
            action.run();
        }

        @Override
        public long id() {
            return 0;
        }

        @Override
        public Instant dueAt() {
            return NOW.plus(delay);
        }

        @Override
        public String description() {
            return action.toString();
        }

        @Override
        public JobState state() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean cancel() {
            boolean was = !cancelled;
            cancelled = true;
            return was;
        }
    }

    /** A wheel that only records what it is given. */
    private static final class FakeWheel implements DelayScheduler {
        final List<FakeJob> jobs = new ArrayList<>();

        @Override
        public ScheduledJob schedule(Runnable job, Duration delay) {
            FakeJob scheduled = new FakeJob(job, delay);
            jobs.add(scheduled);
            return scheduled;
        }

        @Override
        public ScheduledJob schedule(Runnable job, long delay, TimeUnit unit) {
            return schedule(job, Duration.of(delay, unit.toChronoUnit()));
        }

        @Override
        public long pending() {
            return jobs.stream().filter(j -> !j.cancelled).count();
        }

        @Override
        public List<PendingJob> pendingJobs() {
            throw new UnsupportedOperationException();
        }

        @Override
        public StopReport drain(Duration timeout) {
            throw new UnsupportedOperationException();
        }

        @Override
        public StopReport stopNow() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }
}
