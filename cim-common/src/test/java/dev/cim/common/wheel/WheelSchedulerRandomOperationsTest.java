package dev.cim.common.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Seeded random schedule / cancel / advance sequences checked against a reference model: a
 * priority queue of due ticks. After every advance the set of jobs that ran must be exactly the set
 * the model says fell due, so nothing runs early, late, twice or not at all. A small ring (8 slots)
 * and delays over four rings make cascades frequent.
 */
class WheelSchedulerRandomOperationsTest {

    private static final long SEED = 20_261_122L;
    private static final int OPERATIONS = 200_000;
    private static final long TICK = Duration.ofMillis(1).toNanos();
    private static final int SLOTS = 8;
    private static final long MAX_DELAY = SLOTS * SLOTS * SLOTS * SLOTS * 2 * TICK;

    /** The model: what is pending, by due tick. */
    private record Due(long tick, long id) implements Comparable<Due> {
        @Override
        public int compareTo(Due other) {
            return tick != other.tick ? Long.compare(tick, other.tick) : Long.compare(id, other.id);
        }
    }

    private final Random random = new Random(SEED);
    private final FakeClock clock = new FakeClock();
    private final long origin = clock.nanoTime();
    private final WheelScheduler wheel = DelayScheduler.builder()
            .tick(Duration.ofNanos(TICK)).slots(SLOTS).maxDelay(Duration.ofNanos(MAX_DELAY))
            .timeSource(clock).buildManual();

    private final PriorityQueue<Due> modelQueue = new PriorityQueue<>();
    private final Map<Long, Due> modelLive = new HashMap<>();
    private final List<ScheduledJob> handles = new ArrayList<>();
    private final List<Long> ranThisStep = new ArrayList<>();

    @Test
    void randomOperations_matchAPriorityQueueModelAfterEveryStep() {
        int schedules = 0;
        int cancels = 0;
        int advances = 0;
        for (int op = 0; op < OPERATIONS; op++) {
            int dice = random.nextInt(100);
            if (dice < 45) {
                schedule();
                schedules++;
            } else if (dice < 60 && !handles.isEmpty()) {
                cancel();
                cancels++;
            } else {
                advance();
                advances++;
            }
            if (op % 10_000 == 0) {
                advanceBy(0); // cancels leave the pending count at the next tick
                assertThat(wheel.pending()).as("pending after op %d", op).isEqualTo(modelLive.size());
                assertThat(wheel.pendingJobs()).extracting(PendingJob::id).as("snapshot after op %d", op)
                        .containsExactlyInAnyOrderElementsOf(modelLive.keySet());
            }
        }
        assertThat(schedules).isGreaterThan(50_000);
        assertThat(cancels).isGreaterThan(10_000);
        assertThat(advances).isGreaterThan(50_000);
    }

    private void schedule() {
        long delay = switch (random.nextInt(10)) {
            case 0, 1, 2, 3, 4 -> random.nextLong(3 * SLOTS * TICK);
            case 5, 6, 7 -> random.nextLong(SLOTS * SLOTS * TICK);
            case 8 -> random.nextLong(MAX_DELAY + 1);
            default -> random.nextInt(4) * TICK; // exact tick multiples, including 0
        };
        long deadline = clock.nanoTime() + delay;
        long[] id = new long[1];
        ScheduledJob handle = wheel.schedule(() -> ranThisStep.add(id[0]), Duration.ofNanos(delay));
        id[0] = handle.id();
        Due due = new Due(-Math.floorDiv(origin - deadline, TICK), handle.id());
        modelQueue.add(due);
        modelLive.put(handle.id(), due);
        handles.add(handle);
    }

    private void cancel() {
        int index = random.nextInt(handles.size());
        ScheduledJob handle = handles.get(index);
        boolean live = modelLive.containsKey(handle.id());

        assertThat(handle.cancel()).as("cancel of job %d, live in the model: %s", handle.id(), live).isEqualTo(live);

        modelLive.remove(handle.id()); // left in the queue, skipped when it surfaces
        handles.set(index, handles.get(handles.size() - 1));
        handles.remove(handles.size() - 1);
    }

    private void advance() {
        advanceBy(switch (random.nextInt(20)) {
            case 0 -> random.nextLong(SLOTS * SLOTS * TICK);
            case 1, 2, 3, 4 -> random.nextLong(SLOTS * TICK);
            default -> random.nextLong(3 * TICK);
        });
    }

    private void advanceBy(long step) {
        clock.advanceNanos(step);
        long nowTick = Math.floorDiv(clock.nanoTime() - origin, TICK);
        Set<Long> expected = new TreeSet<>();
        while (!modelQueue.isEmpty() && modelQueue.peek().tick() <= nowTick) {
            Due due = modelQueue.poll();
            if (modelLive.remove(due.id()) != null) {
                expected.add(due.id());
            }
        }

        ranThisStep.clear();
        wheel.advance();

        assertThat(new HashSet<>(ranThisStep)).as("jobs run at tick %d", nowTick).isEqualTo(expected);
        assertThat(ranThisStep).as("each at most once").hasSameSizeAs(expected);
    }
}
