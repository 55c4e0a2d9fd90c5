package dev.cim.server.chat.origin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class PendingSequencesTest {

    private final PendingSequences pending = new PendingSequences();

    @Test
    void empty_holdsNothing() {
        assertThat(pending.size()).isZero();
        assertThat(pending.lowest()).isEqualTo(Long.MAX_VALUE);
        assertThat(pending.contains(1)).isFalse();
        assertThat(pending.remove(1)).isFalse();
    }

    @Test
    void aSlidingWindow_keepsTheLowestAndTheCount() {
        for (long n = 1; n <= 100_000; n++) {
            pending.add(n);
            if (n > 50) {
                assertThat(pending.remove(n - 50)).isTrue();
            }
        }
        assertThat(pending.size()).isEqualTo(50);
        assertThat(pending.lowest()).isEqualTo(99_951);
        assertThat(pending.contains(99_950)).isFalse();
        assertThat(pending.contains(100_000)).isTrue();
    }

    @Test
    void oneLeftBehind_growsTheRing_thenOverflows_andStaysTheLowest() {
        pending.add(5);
        for (long n = 6; n < 5 + 3 * PendingSequences.MAX_BITS; n++) {
            pending.add(n);
            pending.remove(n);
        }
        pending.add(5L + 3 * PendingSequences.MAX_BITS); // beyond the largest ring: overflow

        assertThat(pending.lowest()).isEqualTo(5);
        assertThat(pending.size()).isEqualTo(2);
        assertThat(pending.remove(5)).isTrue();
        assertThat(pending.lowest()).isEqualTo(5L + 3 * PendingSequences.MAX_BITS);
        assertThat(pending.contains(5L + 3 * PendingSequences.MAX_BITS)).isTrue();
    }

    @Test
    void aNumberBelowTheRange_isHeldToo() {
        pending.add(1000);
        pending.add(3); // sent again after a refusal

        assertThat(pending.lowest()).isEqualTo(3);
        assertThat(pending.contains(3)).isTrue();
        assertThat(pending.remove(3)).isTrue();
        assertThat(pending.lowest()).isEqualTo(1000);
    }

    @Test
    void aClientSkippingFarAhead_costsNoMoreThanTheLargestRing() {
        pending.add(1);
        pending.add(Long.MAX_VALUE / 2);
        pending.add(Long.MAX_VALUE - 1);

        assertThat(pending.size()).isEqualTo(3);
        assertThat(pending.lowest()).isEqualTo(1);
        assertThat(pending.remove(1)).isTrue();
        assertThat(pending.lowest()).isEqualTo(Long.MAX_VALUE / 2);
    }

    @Test
    void addingANumberHeld_isRefused() {
        pending.add(7);
        assertThatThrownBy(() -> pending.add(7)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("expected: each added once");
        assertThat(pending.size()).as("the refused add left the count as it was").isEqualTo(1);
    }

    /** Random adds (mostly rising, some far behind or ahead) and removes, against a sorted set. */
    @Test
    void behavesAsASortedSet_underRandomTraffic() {
        Random random = new Random(42);
        TreeSet<Long> model = new TreeSet<>();
        List<Long> held = new ArrayList<>();
        long next = 1;
        for (int step = 0; step < 400_000; step++) {
            int what = random.nextInt(100);
            if (what < 50 || held.isEmpty()) {
                long n;
                if (what == 0) {
                    n = next + random.nextInt(200_000); // skips ahead
                    next = n + 1;
                } else if (what == 1 && next > 10) {
                    n = 1 + random.nextInt((int) Math.min(next - 1, Integer.MAX_VALUE)); // below: sent again
                    if (model.contains(n)) {
                        continue;
                    }
                } else {
                    n = next++;
                }
                pending.add(n);
                model.add(n);
                held.add(n);
            } else {
                // mostly the older ones first, as receipts come
                int index = random.nextInt(10) < 8 ? random.nextInt(Math.min(held.size(), 20)) : random.nextInt(held.size());
                long n = held.remove(index);
                assertThat(pending.remove(n)).isEqualTo(model.remove(n));
            }
            if (step % 997 == 0) {
                assertThat(pending.size()).isEqualTo(model.size());
                assertThat(pending.lowest()).isEqualTo(model.isEmpty() ? Long.MAX_VALUE : model.first());
                long probe = 1 + random.nextInt((int) Math.min(next, Integer.MAX_VALUE));
                assertThat(pending.contains(probe)).isEqualTo(model.contains(probe));
            }
        }
    }
}
