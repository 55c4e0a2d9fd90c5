package dev.cim.client.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BackoffTest {

    private static final Duration INITIAL = Duration.ofMillis(100);
    private static final Duration MAX = Duration.ofMillis(1600);

    /** Bases for INITIAL and MAX: doubling from 100 ms, then held at 1.6 s. */
    private static final long[] BASES = {100, 200, 400, 800, 1600, 1600, 1600, 1600};

    @ParameterizedTest(name = "random {0}")
    @ValueSource(doubles = {0.0, 0.25, 0.5, 0.999_999_999})
    void next_successiveFailures_waitBetweenHalfAndAllOfADoublingBase(double draw) {
        Backoff backoff = new Backoff(INITIAL, MAX, fixed(draw));

        for (long base : BASES) {
            Duration wait = backoff.next();
            Duration b = Duration.ofMillis(base);
            assertThat(wait).isBetween(b.dividedBy(2), b);
            assertThat(wait.toNanos()).isEqualTo(b.toNanos() / 2 + (long) (draw * (b.toNanos() - b.toNanos() / 2)));
        }
    }

    @Test
    void next_withARealRandom_staysWithinTheWindowOfEachAttempt() {
        Backoff backoff = new Backoff(INITIAL, MAX, new Random(42));

        for (int round = 0; round < 1000; round++) {
            for (long base : BASES) {
                assertThat(backoff.next()).isBetween(Duration.ofMillis(base / 2), Duration.ofMillis(base));
            }
            backoff.reset();
        }
    }

    @Test
    void reset_afterFailures_startsAgainFromTheInitialWait() {
        Backoff backoff = new Backoff(INITIAL, MAX, fixed(0.0));
        for (int i = 0; i < 10; i++) {
            backoff.next();
        }
        assertThat(backoff.next()).isEqualTo(MAX.dividedBy(2));

        backoff.reset();

        assertThat(backoff.next()).isEqualTo(INITIAL.dividedBy(2));
        assertThat(backoff.next()).isEqualTo(INITIAL);
    }

    /** Huge failure counts and bases whose doubling overflows a long must stay at the maximum, never drop. */
    @ParameterizedTest(name = "initial {0} ms, max {1} ms")
    @CsvSource({"200, 5000", "1, 1", "1, 1000", "262144, 300000", "524288, 3600000", "1000, 86400000"})
    void next_afterManyFailures_neverFallsBelowHalfTheMax(long initialMillis, long maxMillis) {
        Duration max = Duration.ofMillis(maxMillis);
        Backoff backoff = new Backoff(Duration.ofMillis(initialMillis), max, fixed(0.0));

        Duration previous = Duration.ZERO;
        for (int failure = 0; failure < 200; failure++) {
            Duration wait = backoff.next();
            assertThat(wait).as("wait after %d failures", failure).isGreaterThanOrEqualTo(previous).isLessThanOrEqualTo(max);
            previous = wait;
        }
        assertThat(previous).isEqualTo(max.dividedBy(2));
    }

    @ParameterizedTest(name = "random {0}")
    @ValueSource(doubles = {0.0, 0.5, 0.999_999_999})
    void spread_isUniformWithinZeroAndTheSpread(double draw) {
        Backoff backoff = new Backoff(INITIAL, MAX, fixed(draw));

        assertThat(backoff.spread(Duration.ofSeconds(10))).isBetween(Duration.ZERO, Duration.ofSeconds(10))
                .isEqualTo(Duration.ofNanos((long) (draw * Duration.ofSeconds(10).toNanos())));
        assertThat(backoff.spread(Duration.ZERO)).isZero();
        assertThat(backoff.spread(Duration.ofSeconds(-1))).as("a negative spread means none").isZero();
    }

    @Test
    void spread_doesNotCountAsAFailure() {
        Backoff backoff = new Backoff(INITIAL, MAX, fixed(0.0));

        backoff.spread(Duration.ofSeconds(1));

        assertThat(backoff.next()).isEqualTo(INITIAL.dividedBy(2));
    }

    /**
     * 15,000 clients lose the server at the same moment. Each has its own Backoff with its own seeded
     * Random, as each process would. With equal jitter their first attempts spread evenly over
     * [b/2, b], so no 10 ms bucket gets much more than its share; without jitter all would land in one.
     */
    @Test
    void next_fifteenThousandClientsLostTogether_spreadTheirFirstAttemptOverTheWindow() {
        int clients = 15_000;
        Duration initial = Duration.ofMillis(200); // the client's default
        long bucketMillis = 10;
        long windowMillis = initial.toMillis() / 2; // [100 ms, 200 ms]
        int buckets = (int) (windowMillis / bucketMillis);
        int[] counts = new int[buckets + 1];
        long earliest = Long.MAX_VALUE;
        long latest = Long.MIN_VALUE;

        for (int client = 0; client < clients; client++) {
            Backoff backoff = new Backoff(initial, Duration.ofSeconds(5), new Random(1_000_003L * client + 17));
            long wait = backoff.next().toNanos();
            earliest = Math.min(earliest, wait);
            latest = Math.max(latest, wait);
            counts[(int) ((wait - initial.toNanos() / 2) / Duration.ofMillis(bucketMillis).toNanos())]++;
        }

        // Uniform: each bucket expects n/k; allow five standard deviations of a binomial count.
        double expected = (double) clients / buckets;
        double bound = expected + 5 * Math.sqrt(expected * (1 - 1.0 / buckets));
        assertThat(bound).as("a bound that lock-step reconnection (all in one bucket) would break")
                .isLessThan(clients / 8.0);
        int fullest = Arrays.stream(counts).max().orElseThrow();
        assertThat(fullest).as("clients in the fullest 10 ms bucket of %s", Arrays.toString(counts))
                .isLessThanOrEqualTo((int) bound);
        assertThat(counts[buckets]).as("nobody waits past b").isLessThanOrEqualTo(1);
        assertThat(earliest).as("the spread reaches the start of the window")
                .isLessThan(Duration.ofMillis(100 + bucketMillis).toNanos());
        assertThat(latest).as("and its end").isGreaterThan(Duration.ofMillis(200 - bucketMillis).toNanos());
    }

    @Test
    void constructor_badDurations_areRefusedSayingWhatWasExpected() {
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, MAX, fixed(0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("initial backoff: PT0S (expected: > 0)");
        assertThatThrownBy(() -> new Backoff(Duration.ofMillis(-1), MAX, fixed(0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("(expected: > 0)");
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), fixed(0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("max backoff: PT1S (expected: >= the initial PT2S)");
    }

    /** A random source whose every double is {@code value}. */
    private static RandomGenerator fixed(double value) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                return 0;
            }

            @Override
            public double nextDouble() {
                return value;
            }
        };
    }
}
