package dev.cim.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class FailuresTest {

    @Test
    void rootMessage_noCause_isItsOwnMessage() {
        assertThat(Failures.rootMessage(new ConnectException("Connection refused"))).isEqualTo("Connection refused");
    }

    @Test
    void rootMessage_chainOfCauses_isTheLastCausesMessage() {
        Throwable failure = new IllegalStateException("Error creating bean 'chat'",
                new UncheckedIOException("cannot connect", new ConnectException("Connection refused")));

        assertThat(Failures.rootMessage(failure)).isEqualTo("Connection refused");
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "  "})
    void rootMessage_rootWithoutAMessage_isTheRootsSimpleClassName(String message) {
        Throwable failure = new IllegalStateException("failed", new ConnectException(message));

        assertThat(Failures.rootMessage(failure)).isEqualTo("ConnectException");
    }

    @Test
    void rootMessage_rootOfAnAnonymousClassWithoutAMessage_isItsFullClassName() {
        Throwable anonymous = new IOException() { };

        assertThat(Failures.rootMessage(anonymous)).isEqualTo(anonymous.getClass().getName()).isNotBlank();
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a loop ignores interrupts
    void rootMessage_causesThatLoopBack_endsAtTheLastOneNotSeenBefore() {
        Exception outer = new Exception("outer");
        Exception middle = new Exception("middle");
        Exception inner = new Exception("inner");
        outer.initCause(middle);
        middle.initCause(inner);
        inner.initCause(middle); // allowed: initCause refuses only the throwable itself

        assertThat(Failures.rootMessage(outer)).isEqualTo("inner");
    }

    @Test
    void rootMessage_null_isRefusedSayingWhatWasExpected() {
        assertThatThrownBy(() -> Failures.rootMessage(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("failure (expected: a throwable)");
    }
}
