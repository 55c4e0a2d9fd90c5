package dev.cim.client.command;

import dev.cim.common.schedule.DelayFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cim.client.core.Recipient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CommandParserTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    /** Saturday 2027-03-27, 10:00 in Paris (UTC+1); the clocks go forward the next night. */
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2027-03-27T09:00:00Z"), PARIS);

    private final CommandParser parser = new CommandParser(Duration.ofDays(30), 100, CLOCK);

    // Sending now.

    @Test
    void plainText_isSentToEveryone() throws Exception {
        assertThat(parser.parse("  hello there, all  ")).isEqualTo(new Command.Send(Recipient.EVERYONE, "hello there, all"));
    }

    @Test
    void atUserText_isSentToThatUserOnly_keepingTheSpacesInside() throws Exception {
        assertThat(parser.parse("@bob see you   at five")).isEqualTo(new Command.Send(Recipient.user("bob"), "see you   at five"));
        assertThat(parser.parse("@bob\tthere")).isEqualTo(new Command.Send(Recipient.user("bob"), "there"));
    }

    @Test
    void atEveryone_isABroadcast() throws Exception {
        assertThat(parser.parse("@everyone hi all")).isEqualTo(new Command.Send(Recipient.EVERYONE, "hi all"));
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"", " ", " \t "})
    void blankLine_isNothing(String line) throws Exception {
        assertThat(parser.parse(line)).isEqualTo(new Command.Nothing());
    }

    @ParameterizedTest(name = "''{0}'' sends ''{1}''")
    @CsvSource(delimiter = '|', value = {
        "::)|:)",
        "  ::-(  |:-(",
        "::q|:q",
        ":::|::",
        "::delay hi 5|:delay hi 5",
        "::@bob hi|:@bob hi",
    })
    void doubleColon_sendsTheRestAsText_startingWithOneColon(String line, String text) throws Exception {
        assertThat(parser.parse(line)).isEqualTo(new Command.Send(Recipient.EVERYONE, text));
    }

    // :delay

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

    @Test
    void delayFormat_writesWhatTheParserReads() throws Exception {
        for (String token : List.of("5s", "1h30m", "1s500ms", "30d", "1d2h3m4s5ms")) {
            Command.Delay parsed = (Command.Delay) parser.parse(":delay hi " + token);
            assertThat(DelayFormat.format(parsed.delay())).isEqualTo(token);
        }
        assertThat(DelayFormat.format(Duration.ZERO)).isEqualTo("0s");
    }

    // :at

    @Test
    void at_clockTime_isTodayInTheUsersZone_withTheTextAsTyped() throws Exception {
        assertThat(parser.parse(":at 17:30 @bob call   me"))
                .isEqualTo(new Command.At(Recipient.user("bob"), "call   me", paris(2027, 3, 27, 17, 30, 0)));
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
        ":at today 23:59 late|2027-03-27T23:59+01:00[Europe/Paris]|late",
        ":at tomorrow 9:00 stand-up|2027-03-28T09:00+02:00[Europe/Paris]|stand-up",
        ":at 2027-04-01 08:15:30 fools|2027-04-01T08:15:30+02:00[Europe/Paris]|fools",
        ":at 10:00:01 just after|2027-03-27T10:00:01+01:00[Europe/Paris]|just after",
    })
    void at_everyTimeForm_isRead(String line, String when, String text) throws Exception {
        assertThat(parser.parse(line)).isEqualTo(new Command.At(Recipient.EVERYONE, text, ZonedDateTime.parse(when)));
    }

    // :delays :cancel :edit :move

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {":cancel 3", ":cancel #3", " :cancel   #3 "})
    void cancel_numberWithOrWithoutHash(String line) throws Exception {
        assertThat(parser.parse(line)).isEqualTo(new Command.Cancel(3));
    }

    @Test
    void edit_numberAndNewText() throws Exception {
        assertThat(parser.parse(":edit 7 see you at   six")).isEqualTo(new Command.Edit(7, "see you at   six"));
        assertThat(parser.parse(":edit #7 ok")).isEqualTo(new Command.Edit(7, "ok"));
    }

    @Test
    void move_toADelay() throws Exception {
        assertThat(parser.parse(":move 7 30m")).isEqualTo(new Command.Move(7, Duration.ofMinutes(30), null));
        assertThat(parser.parse(":move #7 1.5")).isEqualTo(new Command.Move(7, Duration.ofMillis(1500), null));
    }

    @Test
    void move_toATime() throws Exception {
        assertThat(parser.parse(":move 7 tomorrow 9:00")).isEqualTo(new Command.Move(7, null, paris(2027, 3, 28, 9, 0, 0)));
        assertThat(parser.parse(":move #7 17:30")).isEqualTo(new Command.Move(7, null, paris(2027, 3, 27, 17, 30, 0)));
        assertThat(parser.parse(":move 7 2027-04-02 07:00"))
                .isEqualTo(new Command.Move(7, null, paris(2027, 4, 2, 7, 0, 0)));
    }

    @Test
    void commandsWithoutArguments() throws Exception {
        assertThat(parser.parse(":delays")).isEqualTo(new Command.ListDelays());
        assertThat(parser.parse(":olu")).isEqualTo(new Command.OnlineUsers());
        assertThat(parser.parse(":help")).isEqualTo(new Command.Help());
        assertThat(parser.parse(":q")).isEqualTo(new Command.Quit(false));
        assertThat(parser.parse(" :q! ")).isEqualTo(new Command.Quit(true));
    }

    // Errors.

    @ParameterizedTest(name = "''{0}'' fails with ''{1}''")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        ":delay|\"the text and the delay are missing; usage: :delay [@user|#group] <text> <delay>, e.g. :delay see you soon 5m\"",
        ":delay hi|\"the delay is missing; usage: :delay [@user|#group] <text> <delay>, e.g. :delay see you soon 5m\"",
        ":delay hi abc|'abc' is not a delay: expected seconds (5, 1.5) or amounts with units (500ms, 90s, 2m, 1h30m)",
        ":delay hi -5|the delay must not be negative: -5",
        ":delay hi 5x|'5x' is not a delay: expected seconds (5, 1.5) or amounts with units (500ms, 90s, 2m, 1h30m)",
        ":delay hi 30m1h|'30m1h' is not a delay: units must go from largest to smallest, each once (expected seconds (5, 1.5) or amounts with units (500ms, 90s, 2m, 1h30m))",
        ":delay hi 0.0001|the delay 0.0001 is finer than a millisecond",
        ":delay hi 31d|the delay 31d is over the maximum of 30d (cim.client.max-delay)",
        ":delay hi 99999999999999999999|the delay 99999999999999999999 is far too long",
        ":delay @bob 5|\"the text is missing; usage: :delay [@user|#group] <text> <delay>, e.g. :delay see you soon 5m\"",
        ":delay @ hi 5|\"'@': a user name is required; usage: :delay [@user|#group] <text> <delay>, e.g. :delay see you soon 5m\"",
        ":delay hi 0|the delay must be more than 0 (to send at once, type the text alone)",
        ":delay hi 0ms|the delay must be more than 0 (to send at once, type the text alone)",
        "@bob|the text is missing; usage: @user <text> or #group <text>, e.g. @bob hi",
        "@b*b hi|'@b*b': invalid user name (expected: 1 to 32 of A-Z a-z 0-9 _ - ., beginning and ending with a letter or digit, no two of _ - . in a row); usage: @user <text> or #group <text>, e.g. @bob hi",
        ":at|\"the time and the text are missing; usage: :at <time> [@user|#group] <text>, e.g. :at 17:30 @bob call me\"",
        ":at 17:30|\"the text is missing; usage: :at <time> [@user|#group] <text>, e.g. :at 17:30 @bob call me\"",
        ":at 17:30 @bob|\"the text is missing; usage: :at <time> [@user|#group] <text>, e.g. :at 17:30 @bob call me\"",
        ":at 09:00 hi|09:00 has passed (it is 2027-03-27 10:00); for tomorrow: tomorrow 09:00",
        ":at soon hi|'soon' is not a time (expected HH:MM, today HH:MM, tomorrow HH:MM or YYYY-MM-DD HH:MM)",
        ":at tomorrow noon hi|'noon' is not a time of day (expected HH:MM, today HH:MM, tomorrow HH:MM or YYYY-MM-DD HH:MM)",
        ":at 2027-05-01 10:00 hi|2027-05-01 is more than 30d ahead, the maximum (cim.client.max-delay)",
        ":cancel|the number is missing; usage: :cancel <number> (numbers are listed by :delays)",
        ":cancel abc|'abc' is not a number; usage: :cancel <number> (numbers are listed by :delays)",
        ":cancel -3|'-3' is not a number; usage: :cancel <number> (numbers are listed by :delays)",
        ":cancel #|'#' is not a number; usage: :cancel <number> (numbers are listed by :delays)",
        ":edit|the number is missing; usage: :edit <number> <new text> (numbers are listed by :delays)",
        ":edit 7|the text is missing; usage: :edit <number> <new text>",
        ":edit seven hi|'seven' is not a number; usage: :edit <number> <new text> (numbers are listed by :delays)",
        ":move|the number and the new time are missing; usage: :move <number> <delay or time>, e.g. :move 7 30m or :move 7 tomorrow 9:00",
        ":move 7|the new time is missing; usage: :move <number> <delay or time>, e.g. :move 7 30m or :move 7 tomorrow 9:00",
        ":move x 5m|'x' is not a number; usage: :move <number> <delay or time> (numbers are listed by :delays)",
        ":move 7 soon later|'soon later' is not a delay or a time; usage: :move <number> <delay or time>, e.g. :move 7 30m or :move 7 tomorrow 9:00",
        ":move 7 tomorrow 9:00 sharp|unexpected words after the time: 'sharp'; usage: :move <number> <delay or time>, e.g. :move 7 30m or :move 7 tomorrow 9:00",
        ":move 7 abc|'abc' is not a delay: expected seconds (5, 1.5) or amounts with units (500ms, 90s, 2m, 1h30m)",
        ":move 7 31d|the delay 31d is over the maximum of 30d (cim.client.max-delay)",
        ":frobnicate|unknown command :frobnicate; type :help for the list (to send a text that starts with ':', begin it with '::')",
        ":olu now|:olu takes no arguments, got 'now'",
        ":q now|:q takes no arguments, got 'now'",
        "#b*d hi|invalid group name #b*d (a group's name follows a user name's rules: invalid user name (expected: 1 to 32 of A-Z a-z 0-9 _ - ., beginning and ending with a letter or digit, no two of _ - . in a row)); usage: @user <text> or #group <text>, e.g. @bob hi",
        "#team|the text is missing; usage: @user <text> or #group <text>, e.g. @bob hi",
        ":create|the group's name is missing; usage: :create [open] #group [user...], e.g. :create #team bob carol",
        ":create team bob|'team' is not a group (expected: #name); usage: :create [open] #group [user...], e.g. :create #team bob carol",
        ":invite #team|which users? usage: :invite #group user...",
        ":kick|the group's name is missing; usage: :kick #group user...",
        ":join|the group's name is missing; usage: :join #group",
        ":leave #a #b|one group, please; usage: :leave #group",
        ":groups all|:groups takes no arguments, got 'all'",
        ":history|which conversation? usage: :history @user [n] or :history #group [n] (n at most 200; repeat it to page back)",
        ":history bob|'bob' is not a conversation (expected: @user or #group); usage: :history @user [n] or :history #group [n] (n at most 200; repeat it to page back)",
        ":history @bob 500|'500' is not a number from 1 to 200; usage: :history @user [n] or :history #group [n] (n at most 200; repeat it to page back)",
        ":search|\"search for what? usage: :search <words> [@user|#group], e.g. :search lunch #team\"",
        ":search #team|\"search for what? usage: :search <words> [@user|#group], e.g. :search lunch #team\"",
    })
    void badInput_failsWithOneLineSayingWhatWasExpected(String line, String message) {
        assertThatThrownBy(() -> parser.parse(line)).isInstanceOf(CommandException.class).hasMessage(message);
    }

    @Test
    void hashGroupText_isSentToTheGroup() throws Exception {
        assertThat(parser.parse("#Team  standup in  5")).isEqualTo(new Command.Send(Recipient.group("team"),
                "standup in  5"));
        assertThat(parser.parse(":delay #team later 10m")).isEqualTo(new Command.Delay(Recipient.group("team"), "later",
                Duration.ofMinutes(10)));
    }

    @Test
    void groupCommands_nameTheGroupWithoutItsHash_andUsersWithOrWithoutAt() throws Exception {
        assertThat(parser.parse(":create open #Team @bob carol")).isEqualTo(new Command.CreateGroup("team", true,
                List.of("bob", "carol")));
        assertThat(parser.parse(":create #team")).isEqualTo(new Command.CreateGroup("team", false, List.of()));
        assertThat(parser.parse(":invite #team dave")).isEqualTo(new Command.Invite("team", List.of("dave")));
        assertThat(parser.parse(":kick #team @dave")).isEqualTo(new Command.Kick("team", List.of("dave")));
        assertThat(parser.parse(":join #team")).isEqualTo(new Command.Join("team"));
        assertThat(parser.parse(":leave #team")).isEqualTo(new Command.Leave("team"));
        assertThat(parser.parse(":members #team")).isEqualTo(new Command.Members("team"));
        assertThat(parser.parse(":groups")).isEqualTo(new Command.ListGroups());
    }

    @Test
    void historyAndSearch_nameTheirConversation() throws Exception {
        assertThat(parser.parse(":history @Bob")).isEqualTo(new Command.History("@bob", 20));
        assertThat(parser.parse(":history #team 50")).isEqualTo(new Command.History("#team", 50));
        assertThat(parser.parse(":search lunch at noon")).isEqualTo(new Command.Search("lunch at noon", ""));
        assertThat(parser.parse(":search lunch #Team")).isEqualTo(new Command.Search("lunch", "#team"));
    }

    @Test
    void at_timeInTheDaylightSavingGap_isRefused() {
        assertThatThrownBy(() -> parser.parse(":at tomorrow 2:30 hi")).isInstanceOf(CommandException.class)
                .hasMessage("tomorrow 2:30 does not exist in Europe/Paris: the clocks go forward from 02:00 to 03:00"
                        + " that day (expected: a time outside that hour)");
    }

    @Test
    void textLongerThanTheMaximum_isRefusedNamingTheLimit() {
        assertThatThrownBy(() -> parser.parse("x".repeat(101))).isInstanceOf(CommandException.class)
                .hasMessage("the message is 101 characters long; the maximum is 100 (cim.client.max-message-length)");
        assertThatThrownBy(() -> parser.parse(":delay " + "y".repeat(101) + " 5")).isInstanceOf(CommandException.class)
                .hasMessageContaining("the maximum is 100");
        assertThatThrownBy(() -> parser.parse(":at 17:00 " + "y".repeat(101))).isInstanceOf(CommandException.class)
                .hasMessageContaining("the maximum is 100");
        assertThatThrownBy(() -> parser.parse(":edit 1 " + "y".repeat(101))).isInstanceOf(CommandException.class)
                .hasMessageContaining("the maximum is 100");
    }

    @Test
    void anyLineAtAll_givesACommandOrAOneLineCommandExceptionAndNothingElse() {
        Random random = new Random(7);
        List<String> starts = List.of("", ":delay ", ":at ", ":move 1 ", ":edit ", ":cancel ", "::", "@", ":at tomorrow ");
        String alphabet = ":@# \t.-0123456789smhdx!abc\u00a0\u2003\u202e\u001b";
        for (int i = 0; i < 50_000; i++) {
            StringBuilder line = new StringBuilder(starts.get(random.nextInt(starts.size())));
            for (int n = random.nextInt(14); n > 0; n--) {
                line.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            try {
                assertThat(parser.parse(line.toString())).isNotNull();
            } catch (CommandException expected) {
                assertThat(expected.getMessage()).as("the error for '%s'", line).isNotBlank().doesNotContain("\n");
            }
        }
    }

    @Test
    void constructor_maxTextLengthBelowOne_isRefused() {
        assertThatThrownBy(() -> new CommandParser(Duration.ofDays(1), 0, CLOCK)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected: >= 1");
    }

    private static ZonedDateTime paris(int year, int month, int day, int hour, int minute, int second) {
        return ZonedDateTime.of(year, month, day, hour, minute, second, 0, PARIS);
    }
}
