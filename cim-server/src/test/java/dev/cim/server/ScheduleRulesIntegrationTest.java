package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.LoginInfo;
import dev.cim.client.core.Recorder;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.AccountSettings;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.support.RawClient;
import dev.cim.server.support.SharedServer;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a user sets for their scheduled messages and what the server tells them up front: the
 * account's time zone, shared by every terminal, and the limits in the login result.
 */
class ScheduleRulesIntegrationTest {

    @RegisterExtension
    static final SharedServer shared = new SharedServer(
            "--cim.server.delays.max-per-user=7",
            "--cim.server.limits.messages-per-second=40",
            "--cim.server.limits.message-burst=90");

    @Test
    void loginResult_tellsTheLimits_soAClientCanRefuseBeforeAsking() {
        CimClient alice = shared.online(shared.name("alice"), new Recorder());

        LoginInfo info = alice.connect().join();

        assertThat(info.maxScheduled()).isEqualTo(7);
        assertThat(info.messagesPerSecond()).isEqualTo(40);
        assertThat(info.messageBurst()).isEqualTo(90);
        assertThat(info.zone()).isEmpty();
    }

    @Test
    void zone_setOnOneTerminal_isToldToTheOthers_andComesWithTheNextLogin() {
        Recorder other = new Recorder();
        CimClient otherTerminal = shared.online(shared.name("alice"), other);
        CimClient alice = shared.online(shared.name("alice"), new Recorder());

        assertThat(alice.setZone(ZoneId.of("Europe/Berlin")).join()).isEqualTo(ZoneId.of("Europe/Berlin"));

        other.awaitZone(ZoneId.of("Europe/Berlin"));
        assertThat(otherTerminal.zone()).contains(ZoneId.of("Europe/Berlin"));
        assertThat(alice.zone()).contains(ZoneId.of("Europe/Berlin"));
        CimClient later = shared.online(shared.name("alice"), new Recorder());
        assertThat(later.connect().join().zone()).contains(ZoneId.of("Europe/Berlin"));
    }

    @Test
    void zone_unknownToTheServer_isRefusedSayingWhatIsExpected() {
        try (RawClient alice = RawClient.connect(shared.server().port()).login(shared.name("alice"), 77)) {
            alice.send(Envelopes.setSettings(5, AccountSettings.newBuilder().setZone("Mars/Olympus").build()));

            Envelope answer = alice.await("the answer", e -> e.getRequestId() == 5);
            assertThat(answer.getError().getCode()).isEqualTo(ErrorReply.Code.BAD_REQUEST);
            assertThat(answer.getError().getMessage()).isEqualTo("not changed: unknown time zone 'Mars/Olympus' "
                    + "(expected: an IANA zone such as Europe/Berlin)");
        }
    }
}
