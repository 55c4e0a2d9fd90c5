package dev.cim.client.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.proto.Envelope;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PingerTest {

    @Test
    void theDelay_endsOnTheLastTenthOfASecondAtOrBeforeTheInterval_andAShortIntervalIsKept() {
        assertThat(Pinger.delayMillis(12_345, 45_000)).isEqualTo(44_955); // pings at 57.300
        assertThat(Pinger.delayMillis(12_300, 45_000)).isEqualTo(45_000); // on the grid already
        assertThat(Pinger.delayMillis(12_399, 1_000)).isEqualTo(901);
        assertThat(Pinger.delayMillis(12_345, 999)).isEqualTo(999); // under ten steps: as it is
        assertThat(Pinger.delayMillis(-55, 2_000)).isEqualTo(1_955); // a clock before 1970 too
    }

    @Test
    void pings_goOnTheGridOfTheClock_everyIntervalOrUpToAStepEarly() {
        // The event loop's time and the clock run together: the clock reads 12.345 s when the channel opens.
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.freezeTime(); // moved by advanceTimeBy only
        long openedNanos = channel.eventLoop().ticker().nanoTime();
        Clock clock = new Clock() {
            @Override
            public long millis() {
                return 12_345 + TimeUnit.NANOSECONDS.toMillis(channel.eventLoop().ticker().nanoTime() - openedNanos);
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(millis());
            }

            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }
        };
        channel.pipeline().addLast(new Pinger(Duration.ofSeconds(2), clock));

        channel.advanceTimeBy(1_954, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat((Object) channel.readOutbound()).as("not before 14.300").isNull();
        channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        Envelope first = channel.readOutbound();
        assertThat(first.getPing().getClientTimeMillis()).isEqualTo(14_300);

        channel.advanceTimeBy(2_000, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        Envelope second = channel.readOutbound();
        assertThat(second.getPing().getClientTimeMillis()).as("a whole interval on: on the grid already")
                .isEqualTo(16_300);
        channel.close();
        channel.advanceTimeBy(10, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertThat((Object) channel.readOutbound()).as("none once closed").isNull();
    }
}
