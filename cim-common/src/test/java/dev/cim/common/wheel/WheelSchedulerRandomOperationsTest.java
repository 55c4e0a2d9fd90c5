package dev.cim.common.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Seeded random schedule / cancel / clock-jump / sleep-until-the-alarm sequences checked against a
 * reference model of every pending job's deadline. A pass at time {@code p} must run exactly once
 * each job it owes and nothing early:
 * <ul>
 *   <li>never a job whose deadline is after {@code p};</li>
 *   <li>always a job whose slot ends by {@code p} (the wheel's resolution), and a job that reaches
 *       the wheel in this pass with its deadline passed.</li>
 * </ul>
 * In between it may run a job whose deadline has passed but whose slot has not ended (one that a
 * cascade brings down after its deadline). After every operation the alarm, the time the ticker
 * would sleep until, must not be later than the moment any pending job is owed: that is what lets
 * the ticker sleep. The clock jumps, sometimes far past the maximum delay, and sometimes straight
 * to the alarm as the ticker thread would. A small ring (8 slots) and delays over four rings make
 * cascades frequent.
 */
class WheelSchedulerRandomOperationsTest {

    private static final long SEED = 20_261_123L;
    private static final int OPERATIONS = 200_000;
    private static final long TICK = Duration.ofMillis(1).toNanos();
    private static final int SLOTS = 8;
    private static final long MAX_DELAY = SLOTS * SLOTS * SLOTS * SLOTS * 2 * TICK;

    /** The model's view of a pending job. {@code filed}: a pass has taken it from the inbox. */
    private static final class Pending {
        final long deadline;
        boolean filed;

        Pending(long deadline) {
            this.deadline = deadline;
        }
    }

    private final Random random = new Random(SEED);
    private final FakeClock clock = new FakeClock();
    private final long origin = clock.nanoTime();
    private final WheelScheduler wheel = DelayScheduler.builder()
            .tick(Duration.ofNanos(TICK)).slots(SLOTS).maxDelay(Duration.ofNanos(MAX_DELAY))
            .timeSource(clock).buildManual();
    private final long resolution = wheel.resolutionNanos();

    private final Map<Long, Pending> model = new HashMap<>();
    private final List<ScheduledJob> handles = new ArrayList<>();
    private final List<Long> ranThisPass = new ArrayList<>();
    private int sleeps;

    @Test
    void randomOperations_matchTheModelAfterEveryStep() {
        int schedules = 0;
        int cancels = 0;
        int jumps = 0;
        for (int op = 0; op < OPERATIONS; op++) {
            int dice = random.nextInt(100);
            if (dice < 45) {
                schedule();
                schedules++;
            } else if (dice < 60 && !handles.isEmpty()) {
                cancel();
                cancels++;
            } else if (dice < 80) {
                sleepUntilTheAlarm();
            } else {
                jump();
                jumps++;
            }
            assertAlarmNotAfterAnyOwedJob(op);
            if (op % 10_000 == 0) {
                pass(); // cancels leave the pending count at the next pass
                assertThat(wheel.pending()).as("pending after op %d", op).isEqualTo(model.size());
                assertThat(wheel.pendingJobs()).extracting(PendingJob::id).as("snapshot after op %d", op)
                        .containsExactlyInAnyOrderElementsOf(model.keySet());
            }
        }
        assertThat(schedules).isGreaterThan(50_000);
        assertThat(cancels).isGreaterThan(10_000);
        assertThat(jumps).isGreaterThan(20_000);
        assertThat(sleeps).isGreaterThan(20_000);
    }

    private void schedule() {
        long delay = switch (random.nextInt(10)) {
            case 0, 1, 2, 3 -> random.nextLong(3 * SLOTS * TICK);
            case 4, 5, 6 -> random.nextLong(SLOTS * SLOTS * TICK);
            case 7 -> random.nextLong(MAX_DELAY + 1);
            case 8 -> random.nextInt(4) * TICK; // exact tick multiples, including 0
            default -> -random.nextLong(2 * TICK); // zero or less: "now"
        };
        long deadline = clock.nanoTime() + Math.max(0, delay);
        long[] id = new long[1];
        ScheduledJob handle = wheel.schedule(() -> ranThisPass.add(id[0]), Duration.ofNanos(delay));
        id[0] = handle.id();
        model.put(handle.id(), new Pending(deadline));
        handles.add(handle);
    }

    private void cancel() {
        int index = random.nextInt(handles.size());
        ScheduledJob handle = handles.get(index);
        boolean live = model.containsKey(handle.id());

        assertThat(handle.cancel()).as("cancel of job %d, live in the model: %s", handle.id(), live).isEqualTo(live);

        model.remove(handle.id());
        handles.set(index, handles.get(handles.size() - 1));
        handles.remove(handles.size() - 1);
    }

    private void jump() {
        clock.advanceNanos(switch (random.nextInt(40)) {
            case 0 -> MAX_DELAY + random.nextLong(10 * MAX_DELAY); // a pause longer than any delay
            case 1, 2 -> random.nextLong(SLOTS * SLOTS * TICK);
            case 3, 4, 5, 6, 7, 8, 9, 10 -> random.nextLong(SLOTS * TICK);
            default -> random.nextLong(3 * TICK);
        });
        pass();
    }

    /** What the ticker thread does: sleep until the alarm, then make a pass. */
    private void sleepUntilTheAlarm() {
        long sleep = wheel.nanosUntilAlarm();
        if (sleep == Long.MAX_VALUE) {
            assertThat(model).as("asleep for ever only with nothing pending").isEmpty();
            return;
        }
        clock.advanceNanos(Math.max(0, sleep));
        sleeps++;
        pass();
    }

    private void pass() {
        long now = clock.nanoTime();
        Set<Long> mustRun = new HashSet<>();
        Set<Long> mayRun = new HashSet<>();
        model.forEach((id, job) -> {
            if (job.deadline - now <= 0) {
                mayRun.add(id);
                if (!job.filed || slotEnd(job.deadline) - now <= 0) {
                    mustRun.add(id);
                }
            }
        });

        ranThisPass.clear();
        wheel.advance();

        Set<Long> ran = new HashSet<>(ranThisPass);
        assertThat(ranThisPass).as("each at most once").hasSameSizeAs(ran);
        assertThat(mayRun).as("never early: everything run at %d was due", now).containsAll(ran);
        assertThat(ran).as("never late: everything owed at %d ran", now).containsAll(mustRun);
        ran.forEach(model::remove);
        model.values().forEach(job -> job.filed = true);
    }

    /** The end of a job's resolution slot: when a filed job is owed. */
    private long slotEnd(long deadline) {
        return origin + Math.floorDiv(deadline - origin + resolution - 1, resolution) * resolution;
    }

    private void assertAlarmNotAfterAnyOwedJob(int op) {
        long alarm = wheel.nanosUntilAlarm();
        if (model.isEmpty()) {
            return; // a cancel may still have the ticker come once, for the bookkeeping
        }
        assertThat(alarm).as("something is pending after op %d", op).isLessThan(Long.MAX_VALUE);
        long alarmAt = clock.nanoTime() + alarm;
        for (Pending job : model.values()) {
            long owedAt = job.filed ? slotEnd(job.deadline) : job.deadline;
            assertThat(alarmAt - owedAt).as("alarm after op %d not later than a job owed at %d", op, owedAt)
                    .isLessThanOrEqualTo(0);
        }
    }
}
