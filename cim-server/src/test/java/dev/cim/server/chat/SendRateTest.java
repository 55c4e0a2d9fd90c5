package dev.cim.server.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Token buckets per user on a clock the test moves. */
class SendRateTest {

    private long now = 1_000;
    private final SendRate rate = new SendRate(10, 3, () -> now); // 10 a second, bursts of 3

    @Test
    void aBurstIsGranted_thenTheNextIsRefusedWithTheWaitForItsToken() {
        assertThat(rate.take("alice")).isZero();
        assertThat(rate.take("alice")).isZero();
        assertThat(rate.take("alice")).isZero();

        assertThat(rate.take("alice")).isEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(rate.take("bob")).as("each user has a bucket of their own").isZero();
    }

    @Test
    void tokensComeBackAtTheRate_neverPastTheBurst() {
        for (int i = 0; i < 3; i++) {
            rate.take("alice");
        }
        now += TimeUnit.MILLISECONDS.toNanos(100);
        assertThat(rate.take("alice")).isZero();
        assertThat(rate.take("alice")).isPositive();

        now += TimeUnit.SECONDS.toNanos(60);
        for (int i = 0; i < 3; i++) {
            assertThat(rate.take("alice")).isZero();
        }
        assertThat(rate.take("alice")).as("an idle minute refills the burst, not more").isPositive();
    }

    @Test
    void forgetIdle_forgetsOnlyTheBucketsFullAgain() {
        rate.take("alice");
        rate.take("bob");
        now += TimeUnit.MILLISECONDS.toNanos(100); // alice and bob full again
        for (int i = 0; i < 3; i++) {
            rate.take("carol");
        }

        rate.forgetIdle();

        assertThat(rate.size()).as("carol's bucket, not yet full").isEqualTo(1);
        assertThat(rate.take("carol")).as("forgetting did not refill hers").isPositive();
    }

    @Test
    void aRateOrBurstBelowOne_isRefusedSayingWhatIsExpected() {
        assertThatThrownBy(() -> new SendRate(0, 3, () -> now)).hasMessageContaining("expected: both >= 1");
    }
}
