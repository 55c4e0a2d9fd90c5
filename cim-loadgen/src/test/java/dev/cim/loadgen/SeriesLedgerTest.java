package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.schedule.Recurrence;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SeriesLedgerTest {

    private static final Recurrence MINUTE = Recurrence.parse("1m");
    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
    private static final Duration MARGIN = Duration.ofSeconds(1);

    @Test
    void receive_eachChatIdOnce_theSecondIsADuplicate() {
        SeriesLedger ledger = new SeriesLedger(2);
        ledger.scheduled(0, "a-1", T0);

        assertThat(ledger.receive(0, "a-1.1", 1, 0, T0)).isTrue();
        assertThat(ledger.receive(0, "a-1.1", 1, 0, T0)).isFalse();
        assertThat(ledger.receive(0, "a-1.2", 2, 0, T0.plusSeconds(60))).isTrue();

        assertThat(ledger.received()).isEqualTo(2);
        assertThat(ledger.duplicates()).isEqualTo(1);
        assertThat(ledger.misnumbered()).isZero();
    }

    @Test
    void receive_aChatIdOtherThanTheSeriesIdDotItsOccurrence_isMisnumbered() {
        SeriesLedger ledger = new SeriesLedger(1);
        ledger.scheduled(0, "a-1", T0);

        assertThat(ledger.receive(0, "a-1.3", 2, 0, T0)).isTrue();
        assertThat(ledger.receive(0, "b-7.1", 1, 0, T0)).isTrue();

        assertThat(ledger.misnumbered()).isEqualTo(2);
    }

    @Test
    void receive_ofASeriesNotScheduledOrOutOfRange_isUnknown() {
        SeriesLedger ledger = new SeriesLedger(2);
        ledger.scheduled(0, "a-1", T0);

        assertThat(ledger.receive(1, "a-2.1", 1, 0, T0)).isFalse();
        assertThat(ledger.receive(2, "a-3.1", 1, 0, T0)).isFalse();
        assertThat(ledger.receive(-1, "a-4.1", 1, 0, T0)).isFalse();
        assertThat(ledger.receive(Integer.MAX_VALUE + 1L, "a-5.1", 1, 0, T0)).isFalse();

        assertThat(ledger.unknown()).isEqualTo(4);
        assertThat(ledger.received()).isZero();
        assertThat(ledger.scheduled()).isEqualTo(1);
    }

    @Test
    void lost_countsOccurrencesDueAMarginBeforeTheCancelWasAsked_notReceived() {
        SeriesLedger ledger = new SeriesLedger(2);
        ledger.scheduled(0, "a-1", T0);
        ledger.scheduled(1, "a-2", T0.plusSeconds(30));
        ledger.receive(0, "a-1.1", 1, 0, T0);
        ledger.receive(0, "a-1.3", 3, 0, T0.plusSeconds(120));
        // Series 0: due at 0, 60, 120 s before the cutoff of 180.5 - 1 s; the one at 180 is in the margin.
        ledger.cancelAsked(0, T0.plusMillis(180_500));
        // Series 1: due at 30, 90, 150 s; none received.
        ledger.cancelAsked(1, T0.plusSeconds(160));

        assertThat(ledger.lost(MINUTE, ZoneOffset.UTC, MARGIN)).isEqualTo(1 + 3);
    }

    @Test
    void lost_lessWhatALaterOccurrenceSaysWasMissed() {
        SeriesLedger ledger = new SeriesLedger(1);
        ledger.scheduled(0, "a-1", T0);
        ledger.receive(0, "a-1.1", 1, 0, T0);
        ledger.receive(0, "a-1.4", 4, 2, T0.plusSeconds(180));
        ledger.cancelAsked(0, T0.plusSeconds(200));

        assertThat(ledger.missed()).isEqualTo(2);
        assertThat(ledger.lost(MINUTE, ZoneOffset.UTC, MARGIN)).isZero();
    }

    @Test
    void lost_ignoresSeriesWhoseCancelWasNeverAsked() {
        SeriesLedger ledger = new SeriesLedger(1);
        ledger.scheduled(0, "a-1", T0);

        assertThat(ledger.lost(MINUTE, ZoneOffset.UTC, MARGIN)).isZero();
    }

    @Test
    void firedAfterCancel_countsSeriesWithAnOccurrenceDueAfterTheirCancelWasAcknowledged() {
        SeriesLedger ledger = new SeriesLedger(3);
        for (int i = 0; i < 3; i++) {
            ledger.scheduled(i, "a-" + i, T0);
            ledger.receive(i, "a-" + i + ".1", 1, 0, T0);
        }
        ledger.receive(0, "a-0.2", 2, 0, T0.plusSeconds(60));
        ledger.cancelled(0, T0.plusSeconds(59)); // its second was due after: fired after the cancel
        ledger.receive(1, "a-1.2", 2, 0, T0.plusSeconds(60));
        ledger.cancelled(1, T0.plusSeconds(61)); // due before, received after: in flight, not after
        // series 2 never cancelled: not counted

        assertThat(ledger.firedAfterCancel()).isEqualTo(1);
    }
}
