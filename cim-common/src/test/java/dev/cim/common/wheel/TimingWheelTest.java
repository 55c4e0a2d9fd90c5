package dev.cim.common.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Slot and round arithmetic at the edges, on a small wheel (8 slots) so cascades happen often. */
class TimingWheelTest {

    private static final long TICK = 1_000_000L;
    private static final int SLOTS = 8;
    private static final long MAX_DELAY_TICKS = 8L * 8 * 8 * 8 * 3; // needs four rings

    private final List<WheelEntry> expired = new ArrayList<>();
    private final long origin = 123_456_789L;
    private final TimingWheel wheel = new TimingWheel(origin, TICK, SLOTS,
            TimingWheel.levelsFor(SLOTS, MAX_DELAY_TICKS), expired::add);

    static Stream<Arguments> edgeDelays() {
        long[] delaysInTicks = {0, 1, SLOTS - 1, SLOTS, SLOTS + 1, 2 * SLOTS, SLOTS * SLOTS - 1,
            SLOTS * SLOTS, SLOTS * SLOTS + 1, 5L * SLOTS * SLOTS + 3, SLOTS * SLOTS * SLOTS + 7,
            MAX_DELAY_TICKS - 1, MAX_DELAY_TICKS};
        long[] startTicks = {0, 1, SLOTS - 1, SLOTS, SLOTS * SLOTS - 1, 1_000_003};
        long[] fractions = {0, 1, TICK / 2, TICK - 1};
        Stream.Builder<Arguments> cases = Stream.builder();
        for (long delay : delaysInTicks) {
            for (long start : startTicks) {
                for (long fraction : fractions) {
                    cases.add(Arguments.of(delay, start, fraction));
                }
            }
        }
        return cases.build();
    }

    @ParameterizedTest(name = "delay {0} ticks from tick {1} + {2} ns")
    @MethodSource("edgeDelays")
    void advanceTo_anyDelay_expiresOnceAtFirstTickNotBeforeDeadline(long delayTicks, long startTick, long fraction) {
        long now = origin + startTick * TICK + fraction;
        wheel.advanceTo(now);
        long deadline = now + delayTicks * TICK - (delayTicks > 0 && fraction > 0 ? fraction / 2 : 0);
        WheelEntry entry = entry(deadline);
        wheel.place(entry);

        long expiredAt = Long.MIN_VALUE;
        for (long t = wheel.currentTick(); t <= startTick + delayTicks + 2; t++) {
            wheel.advanceTo(origin + t * TICK);
            if (!expired.isEmpty() && expiredAt == Long.MIN_VALUE) {
                expiredAt = origin + t * TICK;
            }
        }

        assertThat(expired).containsExactly(entry);
        assertThat(expiredAt).as("never early").isGreaterThanOrEqualTo(deadline);
        assertThat(expiredAt - deadline).as("at most one tick late").isLessThan(TICK);
    }

    @Test
    void place_deadlineAlreadyPassed_expiresImmediately() {
        wheel.advanceTo(origin + 50 * TICK);
        WheelEntry late = entry(origin + 10 * TICK);

        wheel.place(late);

        assertThat(expired).containsExactly(late);
    }

    @Test
    void remove_filedEntry_neverExpires() {
        WheelEntry kept = entry(origin + 3 * TICK);
        WheelEntry removed = entry(origin + 3 * TICK);
        WheelEntry far = entry(origin + 300 * TICK);
        wheel.place(kept);
        wheel.place(removed);
        wheel.place(far);

        wheel.remove(removed);
        wheel.remove(far);
        wheel.advanceTo(origin + 1_000 * TICK);

        assertThat(expired).containsExactly(kept);
        List<WheelEntry> left = new ArrayList<>();
        wheel.forEach(left::add);
        assertThat(left).isEmpty();
    }

    @Test
    void advanceTo_lateByManyTicks_catchesUpWithoutLosingEntries() {
        for (int i = 1; i <= 2_000; i++) {
            wheel.place(entry(origin + i * TICK));
        }

        wheel.advanceTo(origin + 1_999 * TICK); // one call, as after a long pause

        assertThat(expired).hasSize(1_999);
        wheel.advanceTo(origin + 2_000 * TICK);
        assertThat(expired).hasSize(2_000);
    }

    @Test
    void advanceTo_farFutureEntries_areNotTouchedOnOrdinaryTicks() {
        // Entries a full lap of ring 1 away sit on ring 2 and are not seen by the ticks in between.
        List<WheelEntry> visited = new ArrayList<>();
        TimingWheel counting = new TimingWheel(origin, TICK, SLOTS, 4, visited::add);
        for (int i = 0; i < 1_000; i++) {
            counting.place(entry(origin + (SLOTS * SLOTS * 3 + i % 7) * TICK));
        }

        counting.advanceTo(origin + (SLOTS * SLOTS - 1) * TICK);

        assertThat(visited).isEmpty();
    }

    @Test
    void ceilTicks_matchesExactCeilingDivisionForOffsetsUpTo2To62() {
        java.util.Random random = new java.util.Random(42);
        long[] ticks = {1_000_000, 10_000_000, 100_000_000, 1_000_000_007, 999_999_937, 3_000_000_000L};
        for (long tick : ticks) {
            TimingWheel timed = new TimingWheel(0, tick, SLOTS, 4, expired::add);
            for (int i = 0; i < 200_000; i++) {
                long nanos = switch (i % 4) {
                    case 0 -> random.nextLong(1L << 62);
                    case 1 -> random.nextLong(1L << 40);
                    case 2 -> random.nextLong(1_000) * tick + random.nextInt(3) - 1; // at and around multiples
                    default -> -random.nextLong(1L << 40);
                };
                assertThat(timed.ceilTicks(nanos)).as("ceil(%d / %d)", nanos, tick).isEqualTo(-Math.floorDiv(-nanos, tick));
            }
        }
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
