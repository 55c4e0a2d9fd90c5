package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class TokenTest {

    @Test
    void paddedText_hasExactlyTheLength_andReadsBack() {
        Token token = new Token("f", 999_999, 1_830_000_000_000L, 0);

        String text = token.text(50);

        assertThat(text).hasSize(50).startsWith(token.text() + " x");
        assertThat(Token.parse(text)).isEqualTo(token);
        assertThat(Token.parse(token.text())).isEqualTo(token);
    }

    @Test
    void paddedText_ofTheExactLength_isUnchanged_andTooLongOrOneShortIsRefused() {
        Token token = new Token("n", 1, 2, 0); // "n 1 2 0", 7 characters

        assertThat(token.text(7)).isEqualTo("n 1 2 0");
        assertThat(token.text(9)).isEqualTo("n 1 2 0 x");
        assertThatIllegalArgumentException().isThrownBy(() -> token.text(8));
        assertThatIllegalArgumentException().isThrownBy(() -> token.text(6));
    }

    @Test
    void ofThisRun_marksATagAsThisProcesss_andReadsBack() {
        String tag = Token.ofThisRun("c1");

        assertThat(tag).startsWith("c1.").hasSizeGreaterThan(3).isEqualTo(Token.ofThisRun("c1"));
        assertThat(Token.ofThisRun("c2")).isNotEqualTo(tag);
        assertThat(Token.parse(new Token(tag, 1, 2, 0).text())).isEqualTo(new Token(tag, 1, 2, 0));
        assertThatIllegalArgumentException().isThrownBy(() -> Token.ofThisRun("c 1"))
                .withMessage("measurement: 'c 1' (expected: a word, no spaces)");
        assertThatIllegalArgumentException().isThrownBy(() -> Token.ofThisRun(""));
    }

    @Test
    void parse_refusesOtherTexts() {
        assertThat(Token.parse("hello")).isNull();
        assertThat(Token.parse("n 1 2 0 padding")).isNull();
        assertThat(Token.parse("n 1 2 0 x y")).isNull();
        assertThat(Token.parse("n one 2 0")).isNull();
    }
}
