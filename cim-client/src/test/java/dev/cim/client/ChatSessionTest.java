package dev.cim.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.timeout;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.cim.client.command.CommandParser;
import dev.cim.client.console.ChatView;
import dev.cim.client.console.PipedConsole;
import dev.cim.client.console.ScheduleView;
import dev.cim.client.console.Times;
import dev.cim.client.console.UserZone;
import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimException;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.ScheduledChange;
import dev.cim.client.core.ScheduledMessage;
import dev.cim.client.core.SendReceipt;
import dev.cim.client.core.SentEntry;
import dev.cim.client.core.When;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The console conversation, over a mocked client library: what each line asks of it, and what is printed. */
class ChatSessionTest {

    /** 2027-03-27 10:00 in Paris. */
    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private static final ZoneId TOKYO = ZoneId.of("Asia/Tokyo");
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2027-03-27T09:00:00Z"), PARIS);
    private static final ScheduledMessage THREE = scheduled("00000000000000a1-30", 3, "call me");
    private static final ScheduledMessage FOUR = scheduled("00000000000000a1-40", 4, "lunch?");

    private final CimClient client = mock(CimClient.class);
    private final UserZone zone = new UserZone(CLOCK.getZone());
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final AtomicBoolean loginRefused = new AtomicBoolean();

    @BeforeEach
    void aConnectedClientWithNothingScheduled() {
        when(client.connect()).thenReturn(new CompletableFuture<>());
        when(client.isConnected()).thenReturn(true);
        when(client.scheduled()).thenReturn(CompletableFuture.completedFuture(List.of()));
        when(client.allAnswered()).thenReturn(CompletableFuture.completedFuture(null));
    }

    @Test
    void text_isSent_andAStoredReceiptSaysTheRecipientIsOffline() throws Exception {
        when(client.send(Recipient.user("bob"), "hi there")).thenReturn(CompletableFuture.completedFuture(
                new SendReceipt("00000000000000a1-1", SendReceipt.Outcome.STORED, 0, "bob", false)));

        int exit = run("@bob hi there", ":q");

        assertThat(exit).isZero();
        verify(client).send(Recipient.user("bob"), "hi there");
        assertThat(output()).containsExactly("bob is offline: the message waits in their inbox for their next login", "bye");
    }

    @Test
    void text_storedForARecipientNamedByTheServer_showsTheNameInert() throws Exception {
        when(client.send(Recipient.user("bob"), "hi")).thenReturn(CompletableFuture.completedFuture(
                new SendReceipt("00000000000000a1-1", SendReceipt.Outcome.STORED, 0, "bob\u001B[2J", false)));

        run("@bob hi", ":q");

        assertThat(output()).first().isEqualTo("bob^[[2J is offline: the message waits in their inbox for their next login");
    }

    @Test
    void text_refusedByTheServer_printsWhyOnOneLine() throws Exception {
        when(client.send(Recipient.user("zed"), "hello?")).thenReturn(CompletableFuture.failedFuture(
                new CimException(CimException.Reason.UNKNOWN_USER, "no user named zed")));

        run("@zed hello?", ":q");

        assertThat(output()).contains("error: not sent: no user named zed");
    }

    @Test
    void text_refusedWithAReasonThatSaysNotSent_saysItOnce() throws Exception {
        when(client.send(Recipient.user("bob"), "fast")).thenReturn(CompletableFuture.failedFuture(new CimException(
                CimException.Reason.RATE_LIMITED, "not sent: more than 100 messages per second from alice (expected: a pause of 7 ms before the next)",
                Duration.ofMillis(7))));

        run("@bob fast", ":q");

        assertThat(output()).first()
                .isEqualTo("error: not sent: more than 100 messages per second from alice (expected: a pause of 7 ms before the next)");
    }

    @Test
    void text_whileDisconnected_saysItWaitsForTheConnection() throws Exception {
        when(client.isConnected()).thenReturn(false);
        when(client.send(Recipient.EVERYONE, "anyone?")).thenReturn(new CompletableFuture<>());

        run("anyone?", ":q!");

        assertThat(output()).contains("(not connected: this is done when the connection is back)");
    }

    @Test
    void badLine_printsTheErrorAndTheSessionGoesOn() throws Exception {
        when(client.send(Recipient.EVERYONE, "still here")).thenReturn(new CompletableFuture<>());

        run(":frobnicate", "still here", ":q!");

        assertThat(output()).first().asString().startsWith("error: unknown command :frobnicate;");
        verify(client).send(Recipient.EVERYONE, "still here");
    }

    @Test
    void endOfInput_quitsAsQDoes() throws Exception {
        when(client.send(Recipient.EVERYONE, "bye all")).thenReturn(new CompletableFuture<>());

        int exit = run("bye all");

        assertThat(exit).isZero();
        verify(client).allAnswered();
        assertThat(output()).last().isEqualTo("bye");
    }

    @Test
    void quit_withMessagesTheServerNeverConfirmed_saysHowManyInOneLineEach_andExitsWith3() throws Exception {
        CompletableFuture<SendReceipt> read = new CompletableFuture<>();
        CompletableFuture<ScheduledMessage> scheduling = new CompletableFuture<>();
        CompletableFuture<SendReceipt> held = new CompletableFuture<>();
        when(client.send(Recipient.user("bob"), "one")).thenReturn(read);
        when(client.schedule(Recipient.user("bob"), "two", Duration.ofMinutes(5))).thenReturn(scheduling);
        when(client.send(Recipient.user("bob"), "three")).thenReturn(held);
        when(client.allAnswered()).thenReturn(new CompletableFuture<>()); // never, within the grace
        doAnswer(close -> { // as the library does: written ones unconfirmed, the rest not sent
            read.completeExceptionally(new CimException(CimException.Reason.UNCONFIRMED, "may have been done"));
            scheduling.completeExceptionally(new CimException(CimException.Reason.UNCONFIRMED, "may have been done"));
            held.completeExceptionally(new CimException(CimException.Reason.CLOSED, "closed before it was sent"));
            return null;
        }).when(client).close();

        int exit = run("@bob one", ":delay @bob two 5m", "@bob three", ":q");

        assertThat(exit).isEqualTo(3);
        assertThat(output()).as("no line per message, and none saying 'not sent' of what the server had").containsExactly(
                "error: 1 message was sent but not confirmed by the server: it may have arrived or not, and will not be sent again",
                "error: 1 scheduled message was sent but not confirmed by the server: the server may keep it or not "
                        + "(:delays lists what it keeps)",
                "error: 1 message was not sent: the client was not logged in to a server",
                "bye");
    }

    @Test
    void applicationClosedWhileReading_saysWhatWasLeftUnconfirmed_once() throws Exception {
        sendOneLeftUnconfirmedByTheClose();
        PipedOutputStream typing = new PipedOutputStream();
        ChatSession session = session(new PipedInputStream(typing));
        CompletableFuture<Integer> running = CompletableFuture.supplyAsync(() -> {
            try {
                return session.run(() -> loginRefused.set(true));
            } catch (InterruptedException e) {
                throw new CompletionException(e);
            }
        });
        typing.write("@bob one\n".getBytes(StandardCharsets.UTF_8));
        typing.flush();
        verify(client, timeout(10_000)).send(Recipient.user("bob"), "one");

        int status = session.end(); // as SIGTERM does, through the context's close, while the session reads
        String unconfirmed = "error: 1 message was sent but not confirmed by the server: it may have arrived or not, "
                + "and will not be sent again";
        assertThat(status).isEqualTo(3);
        assertThat(output()).containsExactly(unconfirmed);

        typing.close(); // the end of input, then, quits: it says nothing twice
        assertThat(running.get(10, TimeUnit.SECONDS)).isEqualTo(3);
        assertThat(output()).containsExactly(unconfirmed, "bye");
        verify(client).close();
    }

    @Test
    void quitNow_withAMessageTheServerNeverConfirmed_saysSo() throws Exception {
        sendOneLeftUnconfirmedByTheClose();

        int exit = run("@bob one", ":q!");

        assertThat(exit).isEqualTo(3);
        verify(client, never()).allAnswered();
        assertThat(output()).containsExactly(
                "error: 1 message was sent but not confirmed by the server: it may have arrived or not, and will not be sent again",
                "bye");
    }

    @Test
    void quitNow_doesNotWaitForAnswers() throws Exception {
        when(client.scheduled()).thenReturn(CompletableFuture.completedFuture(List.of(THREE)));

        int exit = run(":q!");

        assertThat(exit).isZero();
        verify(client, never()).allAnswered();
        assertThat(output()).containsExactly("1 scheduled message stays on the server and will be sent at its time", "bye");
    }

    @Test
    void cancel_byNumber_cancelsTheIdTheServerListsForIt() throws Exception {
        when(client.scheduled()).thenReturn(CompletableFuture.completedFuture(List.of(THREE, FOUR)));
        when(client.cancel(FOUR.id())).thenReturn(CompletableFuture.completedFuture(FOUR));

        run(":cancel #4", ":q!");

        verify(client).cancel(FOUR.id());
        assertThat(output()).contains("cancelled scheduled message #4");
    }

    @Test
    void cancel_failed_saysWhichCommandFailed() throws Exception {
        when(client.scheduled()).thenReturn(CompletableFuture.completedFuture(List.of(THREE, FOUR)));
        when(client.cancel(FOUR.id())).thenReturn(CompletableFuture.failedFuture(
                new CimException(CimException.Reason.UNCONFIRMED, "the client was closed before the server answered")));

        run(":cancel 4", ":q!");

        assertThat(output()).contains("error: cancel #4: the client was closed before the server answered");
    }

    @Test
    void cancel_unknownNumber_saysSoAndCancelsNothing() throws Exception {
        when(client.scheduled()).thenReturn(CompletableFuture.completedFuture(List.of(THREE)));

        run(":cancel 9", ":q!");

        verify(client, never()).cancel(any());
        assertThat(output()).contains("error: no scheduled message #9 (sent or cancelled already? :delays lists them)");
    }

    @Test
    void move_byDelay_asksForThatDelay_andShowsTheNewTime() throws Exception {
        Instant due = CLOCK.instant().plus(Duration.ofMinutes(10));
        ScheduledMessage moved = new ScheduledMessage(THREE.id(), 3, THREE.recipient(), THREE.text(), due,
                Duration.ofMinutes(10));
        when(client.scheduled()).thenReturn(CompletableFuture.completedFuture(List.of(THREE)));
        when(client.move(THREE.id(), Duration.ofMinutes(10))).thenReturn(CompletableFuture.completedFuture(moved));

        run(":move 3 10m", ":q!");

        verify(client).move(THREE.id(), Duration.ofMinutes(10));
        assertThat(output()).contains("scheduled message #3 will be sent at 10:10:00");
    }

    @Test
    void edit_replacesTheTextAndShowsItInert() throws Exception {
        ScheduledMessage edited = scheduled(THREE.id(), 3, "new\u001B[2J text");
        when(client.scheduled()).thenReturn(CompletableFuture.completedFuture(List.of(THREE)));
        when(client.edit(THREE.id(), "new\u001B[2J text")).thenReturn(CompletableFuture.completedFuture(edited));

        run(":edit 3 new\u001B[2J text", ":q!");

        assertThat(output()).contains("scheduled message #3 now says: new^[[2J text");
    }

    @Test
    void at_schedulesForThatTime_andSaysWhenAndHowSoon() throws Exception {
        Instant due = Instant.parse("2027-03-27T16:30:00Z"); // 17:30 in Paris
        when(client.schedule(Recipient.user("bob"), "call me", due)).thenReturn(CompletableFuture.completedFuture(
                new ScheduledMessage("00000000000000a1-5", 5, Recipient.user("bob"), "call me", due,
                        Duration.ofMinutes(450))));

        run(":at 17:30 @bob call me", ":q!");

        assertThat(output()).contains(
                "scheduled message #5 to @bob will be sent at 17:30:00 (in 7h30m); it is kept by the server");
    }

    @Test
    void delays_listsEveryScheduledMessage() throws Exception {
        when(client.scheduled()).thenReturn(CompletableFuture.completedFuture(List.of(THREE, FOUR)));

        run(":delays", ":q!");

        assertThat(output()).startsWith("2 scheduled messages:", "  #3  11:00:00  to @bob  call me",
                "  #4  11:00:00  to @bob  lunch?");
    }

    @Test
    void delays_showASeriesWithItsRule_andTheDueTimeOnBothClocks_andWhenOnlineOnes() throws Exception {
        ScheduledMessage standup = new ScheduledMessage("00000000000000a1-50", 5, Recipient.user("bob"), "standup",
                Instant.parse("2027-03-29T07:00:00Z"), Duration.ZERO, When.every("weekday 9:00").times(10), 3,
                Optional.of(TOKYO));
        ScheduledMessage welcome = new ScheduledMessage("00000000000000a1-60", 6, Recipient.user("bob"), "welcome",
                Instant.ofEpochMilli(Long.MAX_VALUE), Duration.ZERO, When.online(), 0, Optional.empty());
        when(client.scheduled()).thenReturn(CompletableFuture.completedFuture(List.of(standup, welcome)));

        run(":delays", ":q!");

        assertThat(output()).startsWith("2 scheduled messages:",
                "  #5  2027-03-29 09:00 CEST (2027-03-29 16:00 JST their time), every weekday at 09:00, next #3 of 10"
                        + "  to @bob  standup",
                "  #6  when bob logs in  to @bob  welcome");
    }

    @Test
    void every_schedulesASeriesInTheUsersZone_andSaysItsRuleAndFirstTime() throws Exception {
        When rule = When.every("2s").zone(PARIS).times(3);
        when(client.schedule(Recipient.user("bob"), "tick", rule)).thenReturn(CompletableFuture.completedFuture(
                new ScheduledMessage("00000000000000a1-50", 5, Recipient.user("bob"), "tick",
                        CLOCK.instant().plusSeconds(2), Duration.ZERO, rule, 1, Optional.empty())));

        run(":every 2s times 3 @bob tick", ":q!");

        verify(client).schedule(Recipient.user("bob"), "tick", rule);
        assertThat(output()).contains(
                "scheduled message #5 to @bob: every 2s, 3 times; the first at 10:00:02 (in 2s); it is kept by the server");
    }

    @Test
    void delayOnline_waitsForTheLogin_andAGroupIsRefusedBeforeAsking() throws Exception {
        when(client.schedule(Recipient.user("bob"), "welcome back", When.online())).thenReturn(
                CompletableFuture.completedFuture(new ScheduledMessage("00000000000000a1-60", 6, Recipient.user("bob"),
                        "welcome back", Instant.ofEpochMilli(Long.MAX_VALUE), Duration.ZERO, When.online(), 0,
                        Optional.empty())));

        run(":delay @bob welcome back online", ":delay #team x online", ":q!");

        verify(client).schedule(Recipient.user("bob"), "welcome back", When.online());
        assertThat(output()).startsWith(
                "scheduled message #6 to @bob will be sent when bob logs in (at once if online now); it is kept by the server",
                "error: 'online' waits for one user to log in (expected: :delay @user <text> online [until <end>])");
    }

    @Test
    void sent_listsTheRecordNewestFirst_orSaysItIsEmpty() throws Exception {
        Instant due = Instant.parse("2027-03-27T08:30:00Z");
        ScheduledMessage tick = new ScheduledMessage("00000000000000a1-50", 5, Recipient.user("bob"), "tick", due,
                Duration.ZERO, When.every("1m"), 4, Optional.empty());
        when(client.sent(20)).thenReturn(CompletableFuture.completedFuture(List.of(
                new SentEntry(tick, ScheduledChange.Kind.SENT, due.plusMillis(200), ""),
                new SentEntry(THREE, ScheduledChange.Kind.FAILED, THREE.dueAt(), "not sent: the inbox of bob is full"))));
        when(client.sent(5)).thenReturn(CompletableFuture.completedFuture(List.of()));

        run(":sent", ":sent 5", ":q!");

        assertThat(output()).startsWith(
                "the last 2 scheduled messages whose time came, newest first:",
                "  #5 (occurrence 4)  to @bob  tick  due 09:30:00  sent 09:30:00 (late 0.2s)",
                "  #3  to @bob  call me  due 11:00:00  failed: the inbox of bob is full",
                "nothing in the record: none of your scheduled messages came due lately");
    }

    @Test
    void skip_aSeries_skipsItsNextOccurrence_andAOneOffIsRefused() throws Exception {
        When rule = When.every("2s");
        ScheduledMessage second = new ScheduledMessage("00000000000000a1-50", 5, Recipient.user("bob"), "tick",
                CLOCK.instant().plusSeconds(4), Duration.ZERO, rule, 2, Optional.empty());
        ScheduledMessage third = new ScheduledMessage(second.id(), 5, Recipient.user("bob"), "tick",
                CLOCK.instant().plusSeconds(6), Duration.ZERO, rule, 3, Optional.empty());
        when(client.scheduled()).thenReturn(CompletableFuture.completedFuture(List.of(THREE, second)));
        when(client.skip(second.id())).thenReturn(CompletableFuture.completedFuture(third));

        run(":skip 5", ":skip 3", ":q!");

        verify(client).skip(second.id());
        verify(client, never()).skip(THREE.id());
        assertThat(output()).startsWith(
                "skipped occurrence 2 of #5; next: occurrence 3 at 10:00:06",
                "error: #3 is not recurring (expected: the number of a message scheduled with :every; :cancel 3 cancels it)");
    }

    @Test
    void tz_showsTheZoneInEffect_andSetsTheAccountsZone() throws Exception {
        AtomicReference<Optional<ZoneId>> account = new AtomicReference<>(Optional.empty());
        when(client.zone()).thenAnswer(ask -> account.get());
        zone.follow(client::zone);
        when(client.setZone(TOKYO)).thenAnswer(set -> {
            account.set(Optional.of(TOKYO)); // as the library does once the server has it
            return CompletableFuture.completedFuture(TOKYO);
        });
        when(client.isConnected()).thenReturn(false); // :tz alone asks nothing of the server

        run(":tz", ":tz Asia/Tokyo", ":tz", ":q!");

        verify(client).setZone(TOKYO);
        assertThat(output()).startsWith(
                "your time zone: not set; using Europe/Paris (this client's; :tz <zone> sets one)",
                "your time zone is now Asia/Tokyo, on every terminal: :at and :every read times there, and times are shown there",
                "(not connected: this is done when the connection is back)",
                "your time zone: Asia/Tokyo (kept on your account)",
                "bye");
    }

    @Test
    void tz_refusedByTheServer_saysWhy() throws Exception {
        when(client.setZone(TOKYO)).thenReturn(CompletableFuture.failedFuture(new CimException(
                CimException.Reason.BAD_REQUEST, "not changed: zones are not kept here")));

        run(":tz Asia/Tokyo", ":q!");

        assertThat(output()).first().isEqualTo("error: time zone not set: not changed: zones are not kept here");
    }

    @Test
    void loginRefused_callsBack() throws Exception {
        when(client.connect()).thenReturn(CompletableFuture.failedFuture(
                new CimException(CimException.Reason.LOGIN_REFUSED, "login refused: wrong password")));

        run(":q!");

        assertThat(loginRefused).isTrue();
    }

    @Test
    void tlsFailure_callsBack() throws Exception {
        when(client.connect()).thenReturn(CompletableFuture.failedFuture(
                new CimException(CimException.Reason.TLS_FAILED, "the server at x failed TLS verification")));

        run(":q!");

        assertThat(loginRefused).isTrue();
    }

    /** "@bob one" is written to the server and never answered: the client's close fails it as UNCONFIRMED. */
    private void sendOneLeftUnconfirmedByTheClose() {
        CompletableFuture<SendReceipt> read = new CompletableFuture<>();
        when(client.send(Recipient.user("bob"), "one")).thenReturn(read);
        doAnswer(close -> read.completeExceptionally(new CimException(CimException.Reason.UNCONFIRMED, "may have been done")))
                .when(client).close();
    }

    private int run(String... lines) throws InterruptedException {
        byte[] input = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        return session(new ByteArrayInputStream(input)).run(() -> loginRefused.set(true));
    }

    private ChatSession session(InputStream input) {
        PipedConsole console = new PipedConsole(input, new PrintStream(out, true, StandardCharsets.UTF_8));
        Times times = new Times(CLOCK, zone);
        ChatView view = new ChatView(console, times, "alice");
        CommandParser parser = new CommandParser(Duration.ofDays(30), 1000, CLOCK, zone::get);
        return new ChatSession(console, view, new ScheduleView(console, times), parser, client, zone, Duration.ofMillis(50));
    }

    private List<String> output() {
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static ScheduledMessage scheduled(String id, long number, String text) {
        return new ScheduledMessage(id, number, Recipient.user("bob"), text, Instant.parse("2027-03-27T10:00:00Z"),
                Duration.ofHours(1));
    }
}
