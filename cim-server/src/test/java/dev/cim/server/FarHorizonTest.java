package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.CimClient;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.Recorder;
import dev.cim.client.core.ScheduledMessage;
import dev.cim.server.chat.ChatCore;
import dev.cim.server.support.MutableClock;
import dev.cim.server.support.TestServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A message scheduled 399 days ahead, on a server whose clock the test moves forward. */
class FarHorizonTest {

    @Test
    void messageScheduled399DaysAhead_waitsInTheStoreOnly_andIsSentWhenItsTimeComes() {
        MutableClock clock = new MutableClock();
        try (TestServer server = TestServer.withClock(clock, "--cim.server.delays.scan-interval=200ms")) {
            Recorder bob = new Recorder();
            server.client("bob", bob).connect().join();
            CimClient alice = server.client("alice", new Recorder());
            alice.connect().join();
            ScheduledMessage scheduled = alice.schedule(Recipient.user("bob"), "a year on", Duration.ofDays(399)).join();
            alice.close();
            assertThat(server.bean(io.micrometer.core.instrument.MeterRegistry.class).get("cim.scheduled.held").gauge()
                    .value()).as("nothing due within the window is on the wheel").isZero();

            clock.advance(Duration.ofDays(399).plusMinutes(1));

            ChatMessage received = bob.awaitText("a year on");
            assertThat(received.id()).isEqualTo(scheduled.id());
            assertThat(received.delay().dueAt()).isEqualTo(scheduled.dueAt());
            assertThat(received.delay().firedByServer()).isTrue();
            assertThat(received.sentAt()).isAfterOrEqualTo(scheduled.dueAt());
            assertThat(server.bean(ChatCore.class)).isNotNull();
        }
    }
}
