package dev.cim.common.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MessageIdsTest {

    @Test
    void of_formatsTheOriginInSixteenHexDigitsAndTheSequenceInDecimal() {
        assertThat(MessageIds.of(0xa1L, 42)).isEqualTo("00000000000000a1-42");
        assertThat(MessageIds.of(-1L, 1)).isEqualTo("ffffffffffffffff-1");
        assertThat(MessageIds.of(-1L, Long.MAX_VALUE)).isEqualTo("ffffffffffffffff-9223372036854775807");
    }

    @Test
    void utf8_isTheIdsBytes() {
        long[] origins = {0xa1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 0x0123456789abcdefL, MessageIds.newOrigin()};
        long[] sequences = {1, 9, 10, 99, 100, 12_345, 999_999_999L, 1_000_000_000L, Long.MAX_VALUE};
        for (long origin : origins) {
            for (long sequence : sequences) {
                assertThat(MessageIds.utf8(origin, sequence).toStringUtf8())
                        .as("origin %x, sequence %d", origin, sequence).isEqualTo(MessageIds.of(origin, sequence));
            }
        }
        assertThatIllegalArgumentException().isThrownBy(() -> MessageIds.utf8(0, 1)).withMessageContaining("non-zero");
        assertThatIllegalArgumentException().isThrownBy(() -> MessageIds.utf8(1, 0))
                .withMessageContaining("expected: > 0");
    }

    @Test
    void prefix_followedByTheSequence_isTheId() {
        assertThat(MessageIds.prefix(0xa1L) + 42).isEqualTo(MessageIds.of(0xa1L, 42));
        assertThat(MessageIds.prefix(-1L) + Long.MAX_VALUE).isEqualTo(MessageIds.of(-1L, Long.MAX_VALUE));
        assertThatIllegalArgumentException().isThrownBy(() -> MessageIds.prefix(0)).withMessageContaining("non-zero");
    }

    @Test
    void of_zeroOriginOrNonPositiveSequence_isRefusedSayingWhatWasExpected() {
        assertThatIllegalArgumentException().isThrownBy(() -> MessageIds.of(0, 1)).withMessageContaining("non-zero");
        assertThatIllegalArgumentException().isThrownBy(() -> MessageIds.of(1, 0)).withMessageContaining("expected: > 0");
    }

    @Test
    void newOrigin_isNeverZeroAndDoesNotRepeat() {
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            long origin = MessageIds.newOrigin();
            assertThat(origin).isNotZero();
            assertThat(seen.add(origin)).isTrue();
        }
    }

    @Test
    void isValid_acceptsWhatOfMakes() {
        assertThat(MessageIds.isValid(MessageIds.of(MessageIds.newOrigin(), 7))).isTrue();
        assertThat(MessageIds.isValid(MessageIds.of(-1L, Long.MAX_VALUE))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "00000000000000a1", "00000000000000a1-", "00000000000000a1-0", "00000000000000a1-07",
        "0000000000000a1-42", "00000000000000g1-42", "00000000000000a1-4x", "00000000000000a1_42",
        "00000000000000a1-99999999999999999999999"})
    void isValid_refusesAnythingElse(String id) {
        assertThat(MessageIds.isValid(id)).isFalse();
    }

    @Test
    void textProblem_blankOrTooLong_isExplained() {
        assertThat(ChatRules.textProblem(" ", 10)).contains("the text is empty");
        assertThat(ChatRules.textProblem("x".repeat(11), 10)).contains("the text has 11 characters (expected: at most 10)");
        assertThat(ChatRules.textProblem("hi", 10)).isEmpty();
    }

    @Test
    void recipientProblem_acceptsEveryoneAndUserNames() {
        assertThat(ChatRules.recipientProblem("everyone")).isEmpty();
        assertThat(ChatRules.recipientProblem("bob")).isEmpty();
        assertThat(ChatRules.recipientProblem("b*b")).get().asString().contains("or 'everyone' for everyone");
    }
}
