package dev.cim.common.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SequenceMapTest {

    @Test
    void slidingWindow_answeredInAnyOrder_keepsExactlyWhatIsOutstanding() {
        SequenceMap<Long> map = new SequenceMap<>();
        Map<Long, Long> expected = new HashMap<>();
        ArrayDeque<Long> window = new ArrayDeque<>();
        SplittableRandom random = new SplittableRandom(7);
        long next = 0;
        for (int step = 0; step < 200_000; step++) {
            if (window.size() < 1 + random.nextInt(300)) {
                long sequence = ++next;
                assertThat(map.put(sequence, sequence)).isNull();
                expected.put(sequence, sequence);
                window.add(sequence);
            } else {
                // Mostly the oldest, sometimes a later one: answers overtake each other.
                long sequence = random.nextInt(4) == 0 ? window.removeLast() : window.removeFirst();
                assertThat(map.remove(sequence)).isEqualTo(sequence);
                assertThat(map.remove(sequence)).isNull();
                expected.remove(sequence);
            }
        }
        assertThat(map.size()).isEqualTo(expected.size());
        assertThat(map.values()).containsExactlyInAnyOrderElementsOf(expected.values());
        for (long sequence = 1; sequence <= next; sequence++) {
            assertThat(map.get(sequence)).isEqualTo(expected.get(sequence));
            assertThat(map.containsKey(sequence)).isEqualTo(expected.containsKey(sequence));
        }
    }

    @Test
    void extremeNumbers_areDistinctKeys() {
        SequenceMap<String> map = new SequenceMap<>();
        long[] numbers = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, 1L << 32, (1L << 32) + 1};
        for (long n : numbers) {
            map.put(n, "v" + n);
        }
        assertThat(map.size()).isEqualTo(numbers.length);
        for (long n : numbers) {
            assertThat(map.get(n)).isEqualTo("v" + n);
        }
        assertThat(map.put(-1, "again")).isEqualTo("v-1");
        map.clear();
        assertThat(map.size()).isZero();
        assertThat(map.get(0)).isNull();
    }
}
