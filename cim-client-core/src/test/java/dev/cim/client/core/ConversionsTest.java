package dev.cim.client.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Receipt;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class ConversionsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "UNKNOWN_USER, UNKNOWN_USER",
        "RATE_LIMITED, RATE_LIMITED",
        "INBOX_FULL, INBOX_FULL",
        "TOO_MANY_SCHEDULED, TOO_MANY_SCHEDULED",
        "NOT_FOUND, NOT_FOUND",
        "INTERNAL, SERVER_ERROR",
        "SHUTTING_DOWN, SERVER_ERROR",
        "BAD_REQUEST, BAD_REQUEST",
        "BAD_FRAME, BAD_REQUEST",
        "STALE_REQUEST, BAD_REQUEST",
        "CODE_UNSPECIFIED, BAD_REQUEST",
    })
    void failure_errorCode_becomesTheReason(ErrorReply.Code code, CimException.Reason reason) {
        CimException failure = Conversions.failure(ErrorReply.newBuilder().setCode(code).setMessage("why")
                .setRetryAfterMillis(250).build());

        assertThat(failure.reason()).isEqualTo(reason);
        assertThat(failure).hasMessage("why");
        assertThat(failure.retryAfter()).isEqualTo(Duration.ofMillis(250));
    }

    @ParameterizedTest
    @EnumSource(value = Receipt.Outcome.class, names = "UNRECOGNIZED", mode = EnumSource.Mode.EXCLUDE)
    void receipt_everyOutcome_isKnown(Receipt.Outcome outcome) {
        SendReceipt receipt = Conversions.receipt(Receipt.newBuilder().setOutcome(outcome).setMessageId("m-1").build());

        assertThat(receipt.outcome().name()).isEqualTo(outcome == Receipt.Outcome.OUTCOME_UNSPECIFIED
                ? "DELIVERED" : outcome.name());
    }

    @ParameterizedTest
    @EnumSource(value = dev.cim.common.protocol.proto.ScheduledChange.Kind.class, names = {"KIND_UNSPECIFIED",
        "UNRECOGNIZED"}, mode = EnumSource.Mode.EXCLUDE)
    void kind_everyKind_keepsItsName(dev.cim.common.protocol.proto.ScheduledChange.Kind kind) {
        assertThat(Conversions.kind(kind).name()).isEqualTo(kind.name());
    }
}
