package dev.cim.client.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cim.client.command.Command.Recipient;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CommandParserTest {

    private final CommandParser parser = new CommandParser(Duration.ofDays(30), 100);

    @Test
    void plainText_isSentToEveryone() throws Exception {
        assertThat(parser.parse("  hello there, all  ")).isEqualTo(new Command.Send(Recipient.EVERYONE, "hello there, all"));
    }

    @Test
    void atUserText_isSentToThatUserOnly() throws Exception {
        assertThat(parser.parse("@bob see you   at five")).isEqualTo(new Command.Send(Recipient.user("bob"), "see you   at five"));
    }

    @Test
    void atEveryone_isABroadcast() throws Exception {
        assertThat(parser.parse("@everyone hi all")).isEqualTo(new Command.Send(Recipient.EVERYONE, "hi all"));
    }

    @Test
    void emptyOrBlankLine_isNothing() throws Exception {
        assertThat(parser.parse("")).isEqualTo(new Command.Nothing());
        assertThat(parser.parse(" \t ")).isEqualTo(new Command.Nothing());
    }

    @Test
    void delay_textWithSpaces_takesTheLastWordAsTheDelay() throws Exception {
        assertThat(parser.parse(":delay see you at 5 pm 10m"))
                .isEqualTo(new Command.Delay(Recipient.EVERYONE, "see you at 5 pm", Duration.ofMinutes(10)));
    }

    @Test
    void delay_startingWithAtUser_isPrivate() throws Exception {
        assertThat(parser.parse(":delay @bob ping me 1.5"))
                .isEqualTo(new Command.Delay(Recipient.user("bob"), "ping me", Duration.ofMillis(1500)));
    }

    @ParameterizedTest(name = "{0} is {1} ms")
    @CsvSource({"5, 5000", "0.001, 1", "1.5, 1500", "0.25, 250", "500ms, 500", "90s, 90000", "2m, 120000",
        "1h30m, 5400000", "1d12h, 129600000", "1m30s250ms, 90250", "2.5m, 150000", "30d, 2592000000"})
    void delay_acceptsSecondsDecimalsAndUnits(String token, long millis) throws Exception {
        assertThat(parser.parse(":delay hi " + token)).isEqualTo(new Command.Delay(Recipient.EVERYONE, "hi", Duration.ofMillis(millis)));
    }

    @ParameterizedTest(name = "''{0}'' fails with ''{1}''")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        ":delay|the text and the delay are missing; usage: :delay [@user] <text> <delay>, e.g. :delay see you soon 5m",
        ":delay hi|the delay is missing; usage: :delay [@user] <text> <delay>, e.g. :delay see you soon 5m",
        ":delay hi abc|'abc' is not a delay: expected seconds (5, 1.5) or amounts with units (500ms, 90s, 2m, 1h30m)",
        ":delay hi -5|the delay must not be negative: -5",
        ":delay hi 5x|'5x' is not a delay: expected seconds (5, 1.5) or amounts with units (500ms, 90s, 2m, 1h30m)",
        ":delay hi 30m1h|'30m1h' is not a delay: units must go from largest to smallest, each once (expected seconds (5, 1.5) or amounts with units (500ms, 90s, 2m, 1h30m))",
        ":delay hi 0.0001|the delay 0.0001 is finer than a millisecond",
        ":delay hi 31d|the delay 31d is over the maximum of 30d (cim.client.max-delay)",
        ":delay hi 99999999999999999999|the delay 99999999999999999999 is far too long",
        ":delay @bob 5|the text is missing; usage: :delay [@user] <text> <delay>, e.g. :delay see you soon 5m",
        ":delay @ hi 5|'@': a user name is required; usage: :delay [@user] <text> <delay>, e.g. :delay see you soon 5m",
        ":delay hi 0|the delay must be more than 0 (to send at once, type the text alone)",
        ":delay hi 0ms|the delay must be more than 0 (to send at once, type the text alone)",
        "@bob|the text is missing; usage: @user <text>, e.g. @bob hi",
        "@b*b hi|'@b*b': invalid user name (expected: 1 to 32 of A-Z a-z 0-9 _ - .); usage: @user <text>, e.g. @bob hi",
        ":cancel|the id is missing; usage: :cancel <id> (ids are listed by :delays)",
        ":cancel abc|'abc' is not an id; usage: :cancel <id> (ids are listed by :delays)",
        ":cancel -3|'-3' is not an id; usage: :cancel <id> (ids are listed by :delays)",
        ":frobnicate|unknown command :frobnicate; type :help for the list",
        ":olu now|:olu takes no arguments, got 'now'",
    })
    void badInput_failsWithOneLineSayingWhatWasExpected(String line, String message) {
        assertThatThrownBy(() -> parser.parse(line)).isInstanceOf(CommandException.class).hasMessage(message);
    }

    @Test
    void textLongerThanTheMaximum_isRefusedNamingTheLimit() {
        assertThatThrownBy(() -> parser.parse("x".repeat(101))).isInstanceOf(CommandException.class)
                .hasMessage("the message is 101 characters long; the maximum is 100 (cim.client.max-message-length)");
        assertThatThrownBy(() -> parser.parse(":delay " + "y".repeat(101) + " 5")).isInstanceOf(CommandException.class)
                .hasMessageContaining("the maximum is 100");
    }

    @Test
    void commands_withoutArguments() throws Exception {
        assertThat(parser.parse(":delays")).isEqualTo(new Command.ListDelays());
        assertThat(parser.parse(":cancel 42")).isEqualTo(new Command.Cancel(42));
        assertThat(parser.parse(":olu")).isEqualTo(new Command.OnlineUsers());
        assertThat(parser.parse(":help")).isEqualTo(new Command.Help());
        assertThat(parser.parse(":q")).isEqualTo(new Command.Quit(false));
        assertThat(parser.parse(" :q! ")).isEqualTo(new Command.Quit(true));
    }

    @Test
    void anyLineAtAll_givesACommandOrACommandExceptionAndNothingElse() {
        Random random = new Random(7);
        String alphabet = ":@ \t.-0123456789smhdx!abc";
        for (int i = 0; i < 50_000; i++) {
            StringBuilder line = new StringBuilder(random.nextBoolean() ? ":delay " : "");
            for (int n = random.nextInt(12); n > 0; n--) {
                line.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            try {
                assertThat(parser.parse(line.toString())).isNotNull();
            } catch (CommandException expected) {
                assertThat(expected.getMessage()).isNotBlank().doesNotContain("\n");
            }
        }
    }

    @Test
    void delayFormat_writesWhatTheParserReads() throws Exception {
        for (String token : new String[] {"5s", "1h30m", "1s500ms", "30d", "1d2h3m4s5ms"}) {
            Command.Delay parsed = (Command.Delay) parser.parse(":delay hi " + token);
            assertThat(DelayFormat.format(parsed.delay())).isEqualTo(token);
        }
        assertThat(DelayFormat.format(Duration.ZERO)).isEqualTo("0s");
    }
}
