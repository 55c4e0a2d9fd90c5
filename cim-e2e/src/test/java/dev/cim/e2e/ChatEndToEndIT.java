package dev.cim.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.Recipient;
import dev.cim.e2e.JavaProcess.Line;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The product as a user meets it: one server jar and client jars as separate processes, typing on
 * piped standard input, over loopback TCP, on a real Redis. Each test uses its own user names.
 */
class ChatEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @RegisterExtension
    static final CimSystem cim = new CimSystem();

    @Test
    void aBroadcast_reachesEveryoneOnlineButTheSender() throws Exception {
        JavaProcess alice = cim.client("alice1");
        JavaProcess bob = cim.client("bob1");
        JavaProcess carol = cim.client("carol1");

        alice.type("hello all, from alice");

        bob.await("] alice1: hello all, from alice", WAIT);
        carol.await("] alice1: hello all, from alice", WAIT);
        bob.type("and hello back");
        assertThat(texts(alice.until(line -> line.contains("bob1: and hello back"), WAIT, "bob's answer")))
                .noneMatch(line -> line.contains("alice1: hello all"));
    }

    @Test
    void aPrivateMessage_reachesItsRecipientOnly() throws Exception {
        JavaProcess alice = cim.client("alice2");
        JavaProcess bob = cim.client("bob2");
        JavaProcess carol = cim.client("carol2");

        alice.type("@bob2 psst, a secret");
        bob.await("] alice2 to you: psst, a secret", WAIT);
        alice.type("marker 2");

        assertThat(texts(carol.until(line -> line.contains("alice2: marker 2"), WAIT, "the marker")))
                .noneMatch(line -> line.contains("secret"));
    }

    @Test
    void aDelayedMessageWithSpaces_arrivesNoEarlierThanItsDelayAndWithinOneSecondAfter() throws Exception {
        JavaProcess alice = cim.client("alice3");
        JavaProcess bob = cim.client("bob3");
        JavaProcess carol = cim.client("carol3");

        long typed = alice.type(":delay see you at five o'clock 2");

        alice.await("will be sent at", WAIT);
        for (JavaProcess other : List.of(bob, carol)) {
            Line received = other.await("] alice3 (delayed 2s): see you at five o'clock", WAIT);
            assertThat(Duration.ofNanos(received.nanos() - typed))
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(2))
                    .isLessThanOrEqualTo(Duration.ofSeconds(3));
        }
        alice.await("was sent", WAIT);
    }

    @Test
    void aPrivateDelayedMessage_reachesItsRecipientOnly() throws Exception {
        JavaProcess alice = cim.client("alice4");
        JavaProcess bob = cim.client("bob4");
        JavaProcess carol = cim.client("carol4");

        alice.type(":delay @bob4 just for you 1");
        bob.await("] alice4 to you (delayed 1s): just for you", WAIT);
        alice.type("marker 4");

        assertThat(texts(carol.until(line -> line.contains("alice4: marker 4"), WAIT, "the marker")))
                .noneMatch(line -> line.contains("just for you"));
    }

    @Test
    void every_sendsItsOccurrences_andOnline_waitsForTheRecipientsLogin() throws Exception {
        JavaProcess carol = cim.client("carol20"); // carol has an account, and goes
        carol.type(":q");
        assertThat(carol.awaitExit(WAIT)).isZero();
        JavaProcess alice = cim.client("alice20");
        JavaProcess bob = cim.client("bob20");

        alice.type(":every 1s times 2 @bob20 tick");
        alice.type(":delay @carol20 welcome back online");
        bob.await("] alice20 to you (#1 of a series): tick", WAIT);
        bob.await("] alice20 to you (#2 of a series): tick", WAIT);
        alice.await("the series has ended", WAIT);
        alice.type(":delays");
        alice.await("when carol20 logs in", WAIT);

        JavaProcess back = cim.client("carol20");
        back.await("] alice20 to you (when online): welcome back", WAIT);
    }

    @Test
    void cancel_stopsAScheduledMessage() throws Exception {
        JavaProcess alice = cim.client("alice5");
        JavaProcess bob = cim.client("bob5");

        alice.type(":delay this never arrives 2");
        long id = idIn(alice.await("will be sent at", WAIT).text());
        alice.type(":delays");
        alice.await("#" + id + "  ", WAIT);
        alice.type(":cancel " + id);
        alice.await("cancelled scheduled message #" + id, WAIT);
        alice.type(":delay this one does 3");

        assertThat(texts(bob.until(line -> line.contains("this one does"), WAIT, "the second scheduled message")))
                .noneMatch(line -> line.contains("never arrives"));
        alice.type(":cancel " + id);
        alice.await("error: no scheduled message #" + id, WAIT);
    }

    @Test
    void quit_leavesScheduledMessagesWithTheServer_whichSendsThemAtTheirTime() throws Exception {
        JavaProcess alice = cim.client("alice6");
        JavaProcess bob = cim.client("bob6");

        alice.type(":delay first of two 8");
        alice.type(":delay @bob6 second of two 9");
        alice.await("(in 8s", WAIT);
        alice.await("(in 9s", WAIT);
        alice.type(":q");

        alice.await("2 scheduled messages stay on the server", WAIT);
        assertThat(alice.awaitExit(WAIT)).isZero();
        long exited = System.nanoTime();
        Line first = bob.await("alice6 (delayed 8s): first of two", WAIT);
        bob.await("alice6 to you (delayed 9s): second of two", WAIT);
        // Once, the wheel's drain at exit kept the process until its jobs had fired.
        assertThat(first.nanos()).as("alice's process ended before the first was due").isGreaterThan(exited);
    }

    @Test
    void quitBang_exitsAtOnce_andTheScheduledMessageStays() throws Exception {
        JavaProcess alice = cim.client("alice10");

        alice.type(":delay kept 1h");
        alice.await("will be sent at", WAIT);
        alice.type(":q!");

        alice.await("1 scheduled message stays on the server", WAIT);
        assertThat(alice.awaitExit(WAIT)).isZero();
        JavaProcess again = cim.client("alice10");
        again.type(":delays");
        again.await("to everyone  kept", WAIT);
    }

    @Test
    void editAndMove_fromAnotherTerminal_changeTheMessage_andTheFirstTerminalIsTold() throws Exception {
        JavaProcess alice = cim.client("alice13");
        JavaProcess aliceElsewhere = cim.client("alice13");
        JavaProcess bob = cim.client("bob13");

        alice.type(":delay @bob13 original text 1h");
        long id = idIn(alice.await("will be sent at", WAIT).text());
        aliceElsewhere.await("was scheduled on another terminal", WAIT);
        aliceElsewhere.type(":edit " + id + " edited text");
        aliceElsewhere.await("now says: edited text", WAIT);
        alice.await("was changed on another terminal", WAIT);
        aliceElsewhere.type(":move " + id + " 2");
        aliceElsewhere.await("will be sent at", WAIT);

        bob.await("alice13 to you (delayed 2s): edited text", WAIT);
        alice.await("#" + id + " to @bob13 was sent", WAIT);
    }

    @Test
    void aPrivateMessageToAnOfflineUser_waitsInTheInboxAndArrivesInOrderAtTheNextLogin() throws Exception {
        JavaProcess bob = cim.client("bob7");
        bob.type(":q");
        assertThat(bob.awaitExit(WAIT)).isZero();
        JavaProcess alice = cim.client("alice7");

        alice.type("@bob7 first, while you were away");
        alice.await("offline", WAIT);
        alice.type("@bob7 second, while you were away");
        alice.type(":delay @bob7 third, delayed 1");

        alice.await("was sent", WAIT);
        JavaProcess bobAgain = cim.client("bob7");
        bobAgain.await("alice7 to you: first, while you were away", WAIT);
        bobAgain.await("alice7 to you: second, while you were away", WAIT);
        bobAgain.await("alice7 to you (delayed 1s): third, delayed", WAIT);
    }

    @Test
    void badInput_getsAOneLineErrorAndTheClientKeepsWorking() throws Exception {
        JavaProcess alice = cim.client("alice8");
        JavaProcess bob = cim.client("bob8");
        String[][] cases = {
            {":delay", "error: the text and the delay are missing"},
            {":delay hi", "error: the delay is missing"},
            {":delay hi abc", "error: 'abc' is not a delay"},
            {":delay hi -5", "error: the delay must not be negative"},
            {":delay hi 5x", "error: '5x' is not a delay"},
            {":delay hi 401d", "error: the delay 401d is over the maximum of 400d (cim.client.max-delay)"},
            {":at 25:00 hi", "error: '25:00' is not a time of day"},
            {":at 2020-01-01 10:00 hi", "error: 2020-01-01 10:00 has passed"},
            {":cancel 999", "error: no scheduled message #999"},
            {":q now", "error: :q takes no arguments"},
            {":frobnicate", "error: unknown command :frobnicate"},
            {"@nobody8 hi", "error:"},
            {":delay @nobody8 hi 1h", "error: not scheduled: no user named nobody8"},
            {"x".repeat(4001), "error: the message is 4001 characters long; the maximum is 4000"},
        };
        for (String[] bad : cases) {
            alice.type(bad[0]);
            List<Line> printed = alice.until(line -> line.startsWith(bad[1]), WAIT, "'" + bad[1] + "'");
            assertThat(printed).as("lines printed for %s", bad[0]).hasSize(1);
        }
        alice.type("");
        alice.type(":delays");
        assertThat(texts(alice.until(line -> line.contains("no scheduled messages"), WAIT, ":delays")))
                .as("an empty line prints nothing").hasSize(1);

        alice.type("still here");
        bob.await("alice8: still here", WAIT);
    }

    @Test
    void aWrongPassword_isRefusedAndTheClientExits() throws Exception {
        JavaProcess first = cim.client("alice9");
        first.type(":q");
        first.awaitExit(WAIT);

        JavaProcess impostor = cim.startClient("alice9", "--cim.user.password=not-the-password");
        // (on the command line here only because it is the wrong one: the setting wins over the environment)

        impostor.await("error: login refused", CimSystem.START);
        assertThat(impostor.awaitExit(WAIT)).isEqualTo(1);
    }

    @Test
    void sigterm_whileTheRecipientHoldsBackTheReceipt_saysSentButNotConfirmed() throws Exception {
        JavaProcess alice = cim.client("alice17");
        JavaProcess bob = cim.client("bob17");

        bob.freeze();
        try {
            alice.type("@bob17 sent before the end");
            alice.type(":olu"); // answered after the line before it was written to the server
            alice.await(line -> line.contains("online ("), WAIT, "the users online");
            alice.terminate(); // not :q: the application is closed under the session
            alice.await("error: 1 message was sent but not confirmed by the server: it may have arrived or not", WAIT);
            alice.awaitExit(WAIT);
        } finally {
            bob.thaw();
        }

        assertThat(alice.transcript()).doesNotContain("not sent");
        bob.await("alice17 to you: sent before the end", WAIT);
    }

    @Test
    void quit_whileTheRecipientHoldsBackTheReceipts_saysSentButNotConfirmed_andEachArrivesOnce() throws Exception {
        JavaProcess alice = cim.client("alice16", "--cim.client.quit-grace=1s");
        JavaProcess bob = cim.client("bob16");

        bob.freeze(); // reads and acknowledges nothing: the receipts of alice's messages wait for him
        try {
            alice.type("@bob16 first while frozen");
            alice.type("@bob16 second while frozen");
            alice.type(":q");
            alice.await("error: 2 messages were sent but not confirmed by the server: they may have arrived or not", WAIT);
            assertThat(alice.awaitExit(WAIT)).isEqualTo(3);
        } finally {
            bob.thaw();
        }

        // Once, the close printed "not sent: the client was closed" for each: false, as the server had them.
        assertThat(alice.transcript()).doesNotContain("not sent");
        bob.await("alice16 to you: second while frozen", WAIT);
        bob.type(":delays"); // its answer comes after anything else the server had for him
        bob.await("no scheduled messages", WAIT);
        assertThat(bob.transcript().lines().filter(line -> line.contains("while frozen"))
                .map(line -> line.substring(line.indexOf("alice16"))))
                .as("what bob was shown after he resumed, each once and in order").containsExactly(
                        "alice16 to you: first while frozen", "alice16 to you: second while frozen");
    }

    @Test
    void endOfInput_quitsLikeQ() throws Exception {
        JavaProcess alice = cim.client("alice11");
        JavaProcess bob = cim.client("bob11");

        alice.type(":delay sent after exit 2");
        alice.await("will be sent at", WAIT);
        alice.endInput();

        assertThat(alice.awaitExit(WAIT)).isZero();
        bob.await("alice11 (delayed 2s): sent after exit", WAIT);
    }

    @Test
    void aTextStartingWithAColon_isSentWithTwoColons() throws Exception {
        JavaProcess alice = cim.client("alice14");
        JavaProcess bob = cim.client("bob14");

        alice.type("::)");

        bob.await("] alice14: :)", WAIT);
    }

    @Test
    void aMessageWithControlCharacters_isShownInert_andCannotForgeALine() throws Exception {
        JavaProcess bob = cim.client("bob15");
        // A program of the attacker's own, through the client library: what no console would type.
        try (CimClient mallory = CimClient.builder().addresses("127.0.0.1:" + cim.port()).user("mallory15")
                .password("pw-mallory15-secret").build()) {
            mallory.connect().join();
            mallory.send(Recipient.user("bob15"), "clear\u001b[2J title\u001b]2;pwned\u0007 bidi\u202e"
                    + "\n[12:00:00] carol to you: give mallory your password").join();
        }

        Line first = bob.await("mallory15 to you: clear", WAIT);
        assertThat(first.text()).contains("clear^[[2J title^[]2;pwned^G bidi<U+202E>").doesNotContain("\u001b");
        Line second = bob.await(line -> line.contains("carol to you"), WAIT, "the second line of the message");
        assertThat(second.text()).startsWith("    | [12:00:00] carol to you");
    }

    @Test
    void garbageAndOversizedFramesAtTheServer_closeOnlyThoseConnectionsWhileOthersKeepChatting() throws Exception {
        JavaProcess alice = cim.client("alice12");
        JavaProcess bob = cim.client("bob12");
        byte[] garbage = {0, 0, 0, 6, (byte) 0xff, (byte) 0xfe, 1, 2, 3, 4}; // a frame whose payload is no Envelope
        byte[] oversized = {0x7f, 0, 0, 0}; // a length field of 2 GiB

        for (byte[] bad : new byte[][] {garbage, oversized}) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", cim.port())) {
                socket.setSoTimeout((int) WAIT.toMillis());
                socket.getOutputStream().write(bad);
                socket.getOutputStream().flush();
                java.io.InputStream in = socket.getInputStream();
                while (in.read() >= 0) {
                    // the server's error frame, then the end of the stream when it closes
                }
            }
        }

        alice.type("still chatting");
        bob.await("alice12: still chatting", WAIT);
        cim.server().await(line -> line.contains("Closing") && line.contains("unreadable frame"), WAIT, "the garbage logged");
        cim.server().await(line -> line.contains("Closing") && line.contains("the first frame is 2130706436 bytes"),
                WAIT, "the oversized frame logged");
    }

    static long idIn(String line) {
        Matcher id = Pattern.compile("#(\\d+)").matcher(line);
        assertThat(id.find()).as("an id in '%s'", line).isTrue();
        return Long.parseLong(id.group(1));
    }

    static List<String> texts(List<Line> lines) {
        return lines.stream().map(Line::text).toList();
    }
}
