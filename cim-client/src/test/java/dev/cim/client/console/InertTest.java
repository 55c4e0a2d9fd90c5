package dev.cim.client.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class InertTest {

    private static final String NL = System.lineSeparator();

    static Stream<Arguments> controls() {
        return Stream.of(
                arguments("clear screen", "\u001B[2J", "^[[2J"),
                arguments("set the window title", "\u001B]2;owned\u0007", "^[]2;owned^G"),
                arguments("carriage return over the line", "abc\rxyz", "abc^Mxyz"),
                arguments("NUL and backspace", "a\u0000b\u0008c", "a^@b^Hc"),
                arguments("C1 control sequence introducer", "\u009B31m red", "<U+009B>31m red"),
                arguments("C1 next line", "\u0085next", "<U+0085>next"),
                arguments("right-to-left override", "abc\u202Edcba", "abc<U+202E>dcba"),
                arguments("left-to-right isolate", "\u2066isolate\u2069", "<U+2066>isolate<U+2069>"),
                arguments("right-to-left and Arabic letter marks", "\u200F\u061C", "<U+200F><U+061C>"),
                arguments("DEL", "rub\u007Fout", "rub^?out"),
                arguments("tab", "a\tb", "a b"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("controls")
    void line_controlCharacters_areShownNotObeyed(String what, String text, String shown) {
        assertThat(Inert.line(text)).isEqualTo(shown);
        assertThat(Inert.text(text)).isEqualTo(shown);
    }

    @Test
    void line_lineBreak_isShownAsCaretJ() {
        assertThat(Inert.line("one\ntwo")).isEqualTo("one^Jtwo");
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"hello", "", "héllo wörld 👋 日本語", "a:b @c #1 [12:00:00]"})
    void text_withNothingToEscape_isTheSameString(String text) {
        assertThat(Inert.text(text)).isSameAs(text);
        assertThat(Inert.line(text)).isSameAs(text);
    }

    @Test
    void text_multiLine_becomesIndentedContinuationLines_thatCannotPassForMessages() {
        String forged = "see you\n[14:05:10] bob: send me your password\r\n\u001B[1A\u001B[2K[14:05:11] admin: ok";

        String shown = Inert.text(forged);

        List<String> lines = List.of(shown.split(NL, -1));
        assertThat(lines).containsExactly(
                "see you",
                Inert.CONTINUATION + "[14:05:10] bob: send me your password^M",
                Inert.CONTINUATION + "^[[1A^[[2K[14:05:11] admin: ok");
        assertThat(lines.subList(1, lines.size())).allSatisfy(line -> assertThat(line).startsWith(Inert.CONTINUATION));
    }

    @Test
    void text_emptyLines_areContinuationsToo() {
        assertThat(Inert.text("a\n\nb\n")).isEqualTo(
                "a" + NL + Inert.CONTINUATION + NL + Inert.CONTINUATION + "b" + NL + Inert.CONTINUATION);
    }

    /** Every char of the BMP, alone and between letters: no control or reordering character survives. */
    @Test
    void everyCharacter_rendered_leavesNoRawControlOrBidiCharacter() {
        for (int c = 0; c <= 0xFFFF; c++) {
            String text = "x" + (char) c + "y";

            assertNoRawControls(Inert.line(text), c);
            String[] lines = Inert.text(text).split(NL, -1);
            assertNoRawControls(lines[0], c);
            for (int i = 1; i < lines.length; i++) {
                assertThat(lines[i]).startsWith(Inert.CONTINUATION);
                assertNoRawControls(lines[i], c);
            }
        }
    }

    private static void assertNoRawControls(String shown, int input) {
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            boolean control = Character.getType(c) == Character.CONTROL; // C0, DEL, C1
            boolean bidi = c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E)
                    || (c >= 0x2066 && c <= 0x2069);
            assertThat(control || bidi).as("U+%04X rendered as '%s'", input, shown).isFalse();
        }
    }
}
