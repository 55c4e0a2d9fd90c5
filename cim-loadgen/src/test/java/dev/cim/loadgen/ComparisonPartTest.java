package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class ComparisonPartTest {

    @Test
    void theMedianOfAnOddCountIsTheMiddleValueWhateverTheOrder() {
        assertThat(ComparisonPart.median(List.of(0.95, 0.81, 0.88))).isEqualTo(0.88);
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        assertThat(ComparisonPart.median(List.of(1.0, 0.7, 0.9, 0.8))).isCloseTo(0.85, Offset.offset(1e-12));
    }

    @Test
    void noValuesHaveNoMedian() {
        assertThat(ComparisonPart.median(List.of())).isNaN();
    }
}
