package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FanOutRoundsTest {

    @Test
    void eachRound_waitsForItsExpectedReceipts_andTakesTheFirstAndTheLast() {
        FanOutRounds rounds = new FanOutRounds(Duration.ofSeconds(10));
        List<Long> sent = new ArrayList<>();

        FanOutRounds.Result result = rounds.run(3, 2, round -> {
            sent.add(round);
            long now = System.nanoTime();
            rounds.received(round, now + 1_000_000);
            rounds.received(round + 1, now); // another round's message: not counted
            rounds.received(round, now + 3_000_000);
        });

        assertThat(sent).containsExactly(0L, 1L, 2L);
        assertThat(result.missing()).isZero();
        assertThat(result.last().count()).isEqualTo(3);
        assertThat(result.last().p50()).isGreaterThanOrEqualTo(3_000_000).isLessThan(1_000_000_000);
        assertThat(result.first().p50()).isLessThan(result.last().p50());
    }

    @Test
    void aRoundShortOfReceipts_countsTheMissing_andOneNobodyReceivedCountsAsTheTimeout() {
        FanOutRounds rounds = new FanOutRounds(Duration.ofMillis(20));

        FanOutRounds.Result result = rounds.run(2, 3, round -> {
            if (round == 0) {
                rounds.received(round, System.nanoTime());
            }
        });

        assertThat(result.missing()).isEqualTo(2 + 3);
        assertThat(result.last().max()).isGreaterThanOrEqualTo(19_000_000);
    }

    @Test
    void refusesNoRoundsAndNoTimeout() {
        assertThatIllegalArgumentException().isThrownBy(() -> new FanOutRounds(Duration.ZERO))
                .withMessage("timeout: PT0S (expected: > 0)");
        assertThatIllegalArgumentException().isThrownBy(() -> new FanOutRounds(Duration.ofSeconds(1)).run(0, 1, r -> { }))
                .withMessage("rounds: 0, expected: 1 (expected: each >= 1)");
    }
}
