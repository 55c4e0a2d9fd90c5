package dev.cim.server.chat.origin;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.Receipt;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.Tracker;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class OriginTest {

    /** Where these origins go when their numbers move: nowhere, no writer here. */
    private static final Consumer<Origin> NOBODY = o -> { };

    private final Origin origin = new Origin("alice", 0xa1L, 0, 0, NOBODY);

    private Tracker tracker(long sequence) {
        return new Tracker(sequence, ByteString.copyFromUtf8("id-" + sequence), "bob", (t, s, stored, f) -> { });
    }

    @Test
    void claim_newNumbersOnce_repeatsNever() {
        assertThat(origin.claim(1)).isTrue();
        assertThat(origin.claim(1)).isFalse();
        assertThat(origin.claim(3)).isTrue(); // numbers may skip (other requests used them)
        assertThat(origin.claim(2)).isFalse(); // below the highest: seen, or out of order
    }

    @Test
    void claim_startsAboveTheWatermarkLoadedFromTheStore() {
        Origin known = new Origin("alice", 0xa1L, 41, 0, NOBODY);

        assertThat(known.claim(41)).isFalse();
        assertThat(known.claim(42)).isTrue();
    }

    @Test
    void watermark_staysBelowTheOldestMessageNotYetResolved() {
        for (long n = 1; n <= 5; n++) {
            origin.claim(n);
            origin.pending(tracker(n));
        }
        origin.answered(1, Envelopes.error(1, dev.cim.common.protocol.proto.ErrorReply.Code.BAD_REQUEST, "x", false));
        origin.answered(2, receipt(2));
        origin.answered(4, receipt(4));

        assertThat(origin.watermark()).isEqualTo(2);
        assertThat(origin.isPending(3)).isTrue();
        origin.answered(3, receipt(3));
        origin.answered(5, receipt(5));
        assertThat(origin.watermark()).isEqualTo(5);
    }

    /**
     * A message refused for now (the storage failing over) is routed again when it comes again,
     * stays unresolved meanwhile (another node trusting the watermark would drop it), and holds back
     * this client's later messages to the same recipient until it comes.
     */
    @Test
    void retry_letsTheSameNumberBeRoutedAgain_keepsTheWatermarkBelowIt_andHoldsBackLaterOnes() {
        for (long n = 1; n <= 3; n++) {
            origin.claim(n);
            origin.pending(tracker(n));
        }
        origin.answered(1, receipt(1));
        origin.answered(3, receipt(3));
        assertThat(origin.retry(2, "bob")).isTrue();

        assertThat(origin.watermark()).isEqualTo(1);
        assertThat(origin.isPending(2)).isFalse();
        assertThat(origin.claim(4)).isTrue();
        assertThat(origin.gate().admit("bob", 4)).as("behind 2, to be sent again").isFalse();
        assertThat(origin.gate().admit("carol", 4)).isTrue();
        assertThat(origin.claim(2)).as("sent again: routed").isTrue();
        assertThat(origin.claim(2)).as("once").isFalse();
        assertThat(origin.gate().admit("bob", 2)).isTrue();
        assertThat(origin.gate().admit("bob", 4)).as("2 came again: the wait is over").isTrue();
        origin.pending(tracker(2));
        origin.answered(2, receipt(2));
        assertThat(origin.watermark()).isEqualTo(4);
    }

    @Test
    void retry_isBounded_pastTheBoundTheRefusalIsFinal() {
        int kept = 0;
        for (long n = 1; n <= 5000; n++) {
            origin.claim(n);
            if (origin.retry(n, "bob")) {
                kept++;
            }
        }
        assertThat(kept).as("numbers kept to be sent again").isEqualTo(4096);
        assertThat(origin.claim(4097)).as("a number past the bound is not routed again").isFalse();
        assertThat(origin.claim(4096)).isTrue();
    }

    @Test
    void delivered_resolvesIt_andAnswersARepeatWithADeliveredReceiptOfItsId() {
        Origin origin = new Origin("alice", 0xa1L, 0, 0, NOBODY);
        origin.claim(7);
        origin.pending(tracker(7));

        origin.delivered(7, 2);

        assertThat(origin.isPending(7)).isFalse();
        assertThat(origin.answerOf(7).getReceipt()).isEqualTo(Receipt.newBuilder()
                .setOutcome(Receipt.Outcome.DELIVERED).setMessageId("00000000000000a1-7").setSessions(2).build());
    }

    @Test
    void answerOf_keepsTheRecentAnswers_andForgetsTheOldOnes() {
        for (long n = 1; n <= 1000; n++) {
            origin.claim(n);
            origin.answered(n, receipt(n));
        }

        assertThat(origin.answerOf(1000)).isEqualTo(receipt(1000));
        assertThat(origin.answerOf(745)).isEqualTo(receipt(745));
        assertThat(origin.answerOf(1)).isNull();
    }

    @Test
    void watermarkToPersist_onlyWhenItMovedSinceItWasWritten() {
        origin.claim(3);
        assertThat(origin.watermarkToPersist()).isEqualTo(3);
        origin.persisted(3);
        assertThat(origin.watermarkToPersist()).isEqualTo(-1);
        origin.claim(4);
        assertThat(origin.watermarkToPersist()).isEqualTo(4);
    }

    @Test
    void isIdle_onlyWithoutASessionOrPendingMessage_afterTheIdleTime() {
        Session session = null;
        origin.attach(session, 0);
        assertThat(origin.isIdle(10, 5)).isTrue();
        origin.claim(1);
        origin.pending(tracker(1));
        assertThat(origin.isIdle(10, 5)).isFalse();
    }

    private static Envelope receipt(long n) {
        return Envelopes.receipt(n, Receipt.Outcome.DELIVERED, "id-" + n, 1, "", false);
    }
}
