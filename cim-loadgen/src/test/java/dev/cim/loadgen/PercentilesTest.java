package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PercentilesTest {

    @Test
    void of_oneToThousand_givesNearestRanks() {
        long[] values = LongStream.rangeClosed(1, 1000).map(i -> 1001 - i).toArray();

        Percentiles p = Percentiles.of(values, values.length);

        assertThat(p).isEqualTo(new Percentiles(1000, 500, 990, 999, 1000));
    }

    @Test
    void of_oneValue_isEveryPercentile() {
        assertThat(Percentiles.of(new long[] {7}, 1)).isEqualTo(new Percentiles(1, 7, 7, 7, 7));
    }

    @Test
    void of_noValues_isEmpty() {
        assertThat(Percentiles.of(new long[0], 0)).isEqualTo(Percentiles.EMPTY);
    }
}
