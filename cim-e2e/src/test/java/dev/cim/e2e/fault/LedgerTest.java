package dev.cim.e2e.fault;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The fault suite's counting, on transcripts written here. */
class LedgerTest {

    private static final String SENDER = String.join("\n", "SENT 1", "SENT 2", "SENT 3", "SENT 4",
            "ACK 1", "FAIL 2 message not sent: the server's storage is unavailable; send it again", "ACK 3",
            "FAIL 4 no user named bob: message not sent", "DONE");

    @Test
    void refusal_isNeitherLostNorConfirmed_andCounted() {
        Ledger ledger = new Ledger("the server's storage is unavailable");
        ledger.sender(SENDER);
        ledger.receiver(String.join("\n", "CONNECTED node-0", "RECV s 1", "RECV s 3"));

        Ledger.Counts counts = ledger.counts();

        assertThat(counts.confirmed()).isEqualTo(2);
        assertThat(counts.lost()).isZero();
        assertThat(counts.refused()).isEqualTo(2);
        assertThat(counts.unexpectedlyRefused()).isEqualTo(1);
        assertThat(ledger.unexpectedRefusals()).containsExactly("4: no user named bob: message not sent");
        assertThat(counts.clean()).as("a refusal the scenario did not expect").isFalse();
    }

    @Test
    void refusal_whenNoneIsExpected_makesTheScenarioUnclean() {
        Ledger ledger = new Ledger();
        ledger.sender("SENT 1\nFAIL 1 message not sent: the server's storage is unavailable; send it again\nDONE");

        assertThat(ledger.counts().unexpectedlyRefused()).isEqualTo(1);
        assertThat(ledger.counts().clean()).isFalse();
    }

    @Test
    void onlyExpectedRefusals_andEveryConfirmedShownOnceInOrder_isClean() {
        Ledger ledger = new Ledger("the server's storage is unavailable");
        ledger.sender("ACK 1\nFAIL 2 message not sent: the server's storage is unavailable; send it again\nACK 3");
        ledger.receiver("RECV s 1\nRECV s 3");

        assertThat(ledger.counts()).isEqualTo(new Ledger.Counts(2, 2, 0, 0, 0, 0, 0, 1, 0));
        assertThat(ledger.counts().clean()).isTrue();
    }

    @Test
    void lastShownByAKilledReceiver_shownFirstByTheNext_isShownAgainAfterAKill_notADuplicate() {
        Ledger ledger = new Ledger();
        ledger.sender("ACK 1\nACK 2\nACK 3");
        ledger.receiver("RECV s 1\nRECV s 2"); // killed after showing 2, before recording it
        ledger.receiver("RECV s 2\nRECV s 3");

        Ledger.Counts counts = ledger.counts();

        assertThat(counts.shownAgainAfterKill()).isEqualTo(1);
        assertThat(counts.duplicated()).isZero();
        assertThat(counts.clean()).isTrue();
    }

    @Test
    void repeatOfAnEarlierMessage_afterAKill_isADuplicate() {
        Ledger ledger = new Ledger();
        ledger.sender("ACK 1\nACK 2\nACK 3");
        ledger.receiver("RECV s 1\nRECV s 2");
        ledger.receiver("RECV s 1\nRECV s 3");

        assertThat(ledger.counts().duplicated()).isEqualTo(1);
        assertThat(ledger.counts().clean()).isFalse();
    }

    @Test
    void confirmedNeverShown_isLost_andShownTwiceOrLate_isCountedSo() {
        Ledger ledger = new Ledger();
        ledger.sender("ACK 1\nACK 2\nACK 3\nACK 4");
        ledger.receiver("RECV s 1\nRECV s 3\nRECV s 2\nRECV s 3");

        Ledger.Counts counts = ledger.counts();

        assertThat(counts.lost()).as("4").isEqualTo(1);
        assertThat(counts.duplicated()).as("3").isEqualTo(1);
        assertThat(counts.outOfOrder()).as("2 after 3").isEqualTo(1);
        assertThat(counts.clean()).isFalse();
    }
}
