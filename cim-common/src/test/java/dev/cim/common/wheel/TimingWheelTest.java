package dev.cim.common.wheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Slot and round arithmetic at the edges, on a small wheel (8 slots) so cascades happen often. */
class TimingWheelTest {

    private static final int SHIFT = 20;
    private static final long SLOT = 1L << SHIFT; // the resolution: about 1 ms
    private static final int SLOTS = 8;
    private static final long MAX_DELAY_SLOTS = 8L * 8 * 8 * 8 * 3; // needs four rings
    private static final int LEVELS = TimingWheel.levelsFor(SLOTS, MAX_DELAY_SLOTS);

    private final List<WheelEntry> expired = new ArrayList<>();
    private final long origin = 123_456_789L;
    private final TimingWheel wheel = new TimingWheel(origin, SHIFT, SLOTS, LEVELS, expired::add);

    static Stream<Arguments> edgeDelays() {
        long[] delaysInSlots = {0, 1, SLOTS - 1, SLOTS, SLOTS + 1, 2 * SLOTS, SLOTS * SLOTS - 1,
            SLOTS * SLOTS, SLOTS * SLOTS + 1, 5L * SLOTS * SLOTS + 3, SLOTS * SLOTS * SLOTS + 7,
            MAX_DELAY_SLOTS - 1, MAX_DELAY_SLOTS};
        long[] startSlots = {0, 1, SLOTS - 1, SLOTS, SLOTS * SLOTS - 1, 1_000_003};
        long[] fractions = {0, 1, SLOT / 2, SLOT - 1};
        Stream.Builder<Arguments> cases = Stream.builder();
        for (long delay : delaysInSlots) {
            for (long start : startSlots) {
                for (long fraction : fractions) {
                    cases.add(Arguments.of(delay, start, fraction));
                }
            }
        }
        return cases.build();
    }

    @ParameterizedTest(name = "delay {0} slots from slot {1} + {2} ns")
    @MethodSource("edgeDelays")
    void advanceTo_anyDelay_expiresOnceAtFirstSlotNotBeforeDeadline(long delaySlots, long startSlot, long fraction) {
        long now = origin + startSlot * SLOT + fraction;
        wheel.advanceTo(now);
        long deadline = now + delaySlots * SLOT - (delaySlots > 0 && fraction > 0 ? fraction / 2 : 0);
        WheelEntry entry = entry(deadline);
        wheel.place(entry);

        long expiredAt = expired.isEmpty() ? Long.MIN_VALUE : now; // due at once: fired by place
        for (long t = wheel.currentTick() + 1; t <= startSlot + delaySlots + 2; t++) {
            wheel.advanceTo(origin + t * SLOT);
            if (!expired.isEmpty() && expiredAt == Long.MIN_VALUE) {
                expiredAt = origin + t * SLOT;
            }
        }

        assertThat(expired).containsExactly(entry);
        assertThat(expiredAt).as("never early").isGreaterThanOrEqualTo(deadline);
        assertThat(expiredAt - deadline).as("less than one slot of the resolution late").isLessThan(SLOT);
    }

    @Test
    void place_deadlineAlreadyPassed_expiresImmediately() {
        wheel.advanceTo(origin + 50 * SLOT);
        WheelEntry late = entry(origin + 10 * SLOT);

        wheel.place(late);

        assertThat(expired).containsExactly(late);
    }

    @Test
    void remove_filedEntry_neverExpiresAndFreesItsSlot() {
        WheelEntry kept = entry(origin + 3 * SLOT);
        WheelEntry removed = entry(origin + 3 * SLOT);
        WheelEntry far = entry(origin + 300 * SLOT);
        wheel.place(kept);
        wheel.place(removed);
        wheel.place(far);

        wheel.remove(removed);
        wheel.remove(far);

        assertThat(wheel.nextEventTick()).as("kept's slot").isEqualTo(3);
        wheel.advanceTo(origin + 1_000 * SLOT);
        assertThat(expired).containsExactly(kept);
        List<WheelEntry> left = new ArrayList<>();
        wheel.forEach(left::add);
        assertThat(left).isEmpty();
        assertThat(wheel.nextEventTick()).isEqualTo(TimingWheel.NO_EVENT);
    }

    @Test
    void advanceTo_lateByManySlots_catchesUpWithoutLosingEntries() {
        for (int i = 1; i <= 2_000; i++) {
            wheel.place(entry(origin + i * SLOT));
        }

        wheel.advanceTo(origin + 1_999 * SLOT); // one call, as after a long pause

        assertThat(expired).hasSize(1_999);
        wheel.advanceTo(origin + 2_000 * SLOT);
        assertThat(expired).hasSize(2_000);
    }

    @Test
    void advanceTo_farFutureEntries_areNotTouchedOnOrdinarySlots() {
        // Entries a full lap of ring 1 away sit on ring 2 and are not seen by the slots in between.
        List<WheelEntry> visited = new ArrayList<>();
        TimingWheel counting = new TimingWheel(origin, SHIFT, SLOTS, 4, visited::add);
        for (int i = 0; i < 1_000; i++) {
            counting.place(entry(origin + (SLOTS * SLOTS * 3 + i % 7) * SLOT));
        }

        counting.advanceTo(origin + (SLOTS * SLOTS - 1) * SLOT);

        assertThat(visited).isEmpty();
    }

    @Test
    void nextEventTick_emptyWheel_isNoEvent() {
        assertThat(wheel.nextEventTick()).isEqualTo(TimingWheel.NO_EVENT);
        assertThat(wheel.nextEventNanos()).isEqualTo(TimingWheel.NO_EVENT);
        wheel.advanceTo(origin + 12_345 * SLOT);
        assertThat(wheel.nextEventTick()).isEqualTo(TimingWheel.NO_EVENT);
    }

    @Test
    void nextEventTick_farFutureEntry_wakesOnlyForItsCascadesAndItsSlot() {
        long due = 3_000; // ring 3 (bits 9..11): cascades at slot 2560, then 2944, then 3000
        wheel.place(entry(origin + due * SLOT));

        List<Long> events = new ArrayList<>();
        while (expired.isEmpty()) {
            long next = wheel.nextEventTick();
            events.add(next);
            wheel.advanceTo(origin + next * SLOT);
        }

        assertThat(events).containsExactly(2_560L, 2_944L, 3_000L);
        assertThat(wheel.nextEventTick()).isEqualTo(TimingWheel.NO_EVENT);
    }

    @Test
    void nextEventTick_isTheEarliestOccupiedSlotAcrossRings() {
        wheel.advanceTo(origin + 5 * SLOT);
        wheel.place(entry(origin + 40 * SLOT)); // ring 1, cascades at 40
        assertThat(wheel.nextEventTick()).isEqualTo(40);
        wheel.place(entry(origin + 13 * SLOT)); // ring 1, cascades at 8
        assertThat(wheel.nextEventTick()).isEqualTo(8);
        wheel.place(entry(origin + 7 * SLOT)); // ring 0
        assertThat(wheel.nextEventTick()).isEqualTo(7);
        assertThat(wheel.nextEventNanos()).isEqualTo(7 * SLOT);
    }

    @Test
    void advanceTo_sinkThrows_keepsEveryEntryAndTakesTheSlotAgain() {
        List<WheelEntry> handed = new ArrayList<>();
        boolean[] failOnce = {true};
        TimingWheel failing = new TimingWheel(origin, SHIFT, SLOTS, LEVELS, entry -> {
            if (handed.size() == 1 && failOnce[0]) {
                failOnce[0] = false;
                throw new OutOfMemoryError("unable to create native thread: simulated");
            }
            handed.add(entry);
        });
        List<WheelEntry> all = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            all.add(entry(origin + 20 * SLOT)); // one ring-1 bucket, cascaded into one ring-0 bucket
        }
        all.forEach(failing::place);

        assertThatThrownBy(() -> failing.advanceTo(origin + 30 * SLOT)).isInstanceOf(OutOfMemoryError.class);
        assertThat(handed).hasSize(1);
        failing.advanceTo(origin + 30 * SLOT);

        assertThat(handed).containsExactlyInAnyOrderElementsOf(all);
        assertThat(failing.nextEventTick()).isEqualTo(TimingWheel.NO_EVENT);
    }

    @Test
    void dueTick_isTheExactCeilingOfTheOffsetInSlots() {
        Random random = new Random(42);
        for (int shift : new int[] {0, 1, 10, 14, 20, 30}) {
            TimingWheel timed = new TimingWheel(0, shift, SLOTS, 4, expired::add);
            long slot = 1L << shift;
            for (int i = 0; i < 100_000; i++) {
                long nanos = switch (i % 4) {
                    case 0 -> random.nextLong(1L << 62);
                    case 1 -> random.nextLong(1L << 40);
                    case 2 -> random.nextLong(1_000) * slot + random.nextInt(3) - 1; // at and around multiples
                    default -> -random.nextLong(1L << 40);
                };
                assertThat(timed.dueTick(entry(nanos))).as("ceil(%d / %d)", nanos, slot)
                        .isEqualTo(-Math.floorDiv(-nanos, slot));
            }
        }
    }

    @Test
    void resolutionShift_isTheLargestPowerOfTwoNotAboveTickPerSlot() {
        assertThat(TimingWheel.resolutionShift(1_000_000, 512)).isEqualTo(10); // 1953 ns -> 1024
        assertThat(TimingWheel.resolutionShift(10_000_000, 512)).isEqualTo(14); // 19531 ns -> 16384
        assertThat(TimingWheel.resolutionShift(1L << 20, 8)).isEqualTo(17);
        assertThat(TimingWheel.resolutionShift(1_000_000, 1 << 30)).as("at least 1 ns").isZero();
    }

    @Test
    void levelsFor_coversTheMaximumDelayWithTheFewestRings() {
        assertThat(TimingWheel.levelsFor(8, 6)).isEqualTo(1);
        assertThat(TimingWheel.levelsFor(8, 7)).isEqualTo(2);
        assertThat(TimingWheel.levelsFor(8, 62)).isEqualTo(2);
        assertThat(TimingWheel.levelsFor(8, 63)).isEqualTo(3);
        assertThat(TimingWheel.levelsFor(512, 30L * 24 * 3600 * 100)).isEqualTo(4);
    }

    private static WheelEntry entry(long deadline) {
        return new WheelEntry(null, 1, deadline, () -> { });
    }
}
