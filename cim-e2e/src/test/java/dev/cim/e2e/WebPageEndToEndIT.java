package dev.cim.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cim.e2e.JavaProcess.Line;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The web page as a user meets it (issue 27): the server jar serves it, Debian's chromium shows
 * it (headless, through Selenium and Debian's chromedriver), and the page chats with the console
 * client jar, over a real server on a real Redis. alice is on the page, bob on the console.
 * Screenshots of the page go to {@code target/web/}.
 */
class WebPageEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Path SHOTS = Path.of("target", "web");

    /** The server closes a connection that sent nothing for this long: the page's heartbeat must keep it. */
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(6);

    /**
     * The server's delay wheel waits at a stop for what is due within this: by default 30 s, during
     * which the server's own sweep ("forget idle send rates", every minute) is often due, so that a
     * SIGTERM took 25 s and more to end a server with no message pending.
     */
    private static final String DRAIN = "--cim.wheel.drain-timeout=2s";

    @RegisterExtension
    static final CimSystem cim = new CimSystem()
            .withServerArgs("--cim.server.idle-timeout=" + IDLE_TIMEOUT.toSeconds() + "s", DRAIN);

    private WebPage page;

    @BeforeEach
    void openBrowser() throws Exception {
        page = new WebPage(1280, 900, WAIT);
    }

    @AfterEach
    void closeBrowser() throws Exception {
        page.close();
    }

    private String pageUrl() {
        return "http://127.0.0.1:" + cim.webPort() + "/";
    }

    @Test
    void alice_onThePage_chatsSchedulesAndOutlivesAServerRestart_withBobOnTheConsole() throws Exception {
        System.out.println("browser: chromium " + page.browserVersion() + ", driver: chromedriver " + page.driverVersion());
        JavaProcess bob = cim.client("bob");
        page.open(pageUrl());
        page.logIn("alice", CimSystem.password("alice"));

        // A message each way; bob's arrives in a conversation that is not open, counted as unread.
        page.type("@bob hello bob, from the page");
        bob.await("] alice to you: hello bob, from the page", WAIT);
        awaitState(page.message("hello bob, from the page"), "delivered");
        page.element("[data-conversation=everyone]").click();
        bob.type("@alice hello alice, from the console");
        WebElement bobs = page.until("bob's conversation with one unread message", d ->
                page.elements("[data-conversation='@bob'] [data-test=unread]").stream()
                        .filter(u -> u.getText().equals("1")).findFirst().orElse(null));
        assertThat(bobs.isDisplayed()).isTrue();
        page.element("[data-conversation='@bob']").click();
        assertThat(page.message("hello alice, from the console").findElement(By.cssSelector(".who")).getText())
                .isEqualTo("bob to you");
        page.until("the unread count cleared", d -> !page.element("[data-conversation='@bob'] [data-test=unread]").isDisplayed());

        // Quiet for longer than the server's idle timeout: the heartbeat keeps the same connection.
        String logins = page.element("#connection").getDomAttribute("data-logins");
        await().pollInSameThread().during(IDLE_TIMEOUT.plusSeconds(2)).atMost(IDLE_TIMEOUT.plusSeconds(6)).until(() ->
                "online".equals(page.element("#connection").getDomAttribute("data-state"))
                        && logins.equals(page.element("#connection").getDomAttribute("data-logins")));

        // A delayed message received is marked as such.
        bob.type(":delay @alice a delayed hello 1");
        assertThat(page.message("a delayed hello").findElement(By.cssSelector(".delayed")).getText()).isEqualTo("delayed 1s");

        // Two scheduled from the page, one typed and one with the picker; the second cancelled,
        // the first moved to a few seconds from now: bob gets the first only, once, at its new time.
        page.type(":delay @bob first scheduled 1h");
        WebElement first = page.scheduled("first scheduled");
        assertThat(first.findElement(By.cssSelector(".recipient")).getText()).isEqualTo("to bob");
        page.element("#input").sendKeys("@bob second scheduled");
        page.setValue(page.element("#later-time"), pickerValue(System.currentTimeMillis() + 7_200_000));
        page.element("#later-send").click();
        WebElement second = page.scheduled("second scheduled");
        assertThat(page.elements("#scheduled [data-test=scheduled]")).hasSize(2);
        second.findElement(By.cssSelector("[data-test=cancel]")).click();
        page.until("the second gone from the panel", d -> page.elements("#scheduled [data-test=scheduled]").size() == 1);
        assertThat(page.element("#scheduled").getText()).doesNotContain("second scheduled");

        long newDue = (System.currentTimeMillis() / 1000 + 7) * 1000; // the picker is to the second
        first.findElement(By.cssSelector("[data-test=reschedule]")).click();
        page.setValue(first.findElement(By.cssSelector("[data-test=reschedule-time]")), pickerValue(newDue));
        first.findElement(By.cssSelector("[data-test=save]")).click();
        page.until("the first due at its new time", d ->
                String.valueOf(newDue).equals(first.findElement(By.cssSelector("[data-test=due]")).getDomAttribute("data-due")));
        long nanosToMillis = System.currentTimeMillis() - System.nanoTime() / 1_000_000;
        Line arrived = bob.await(line -> line.contains("] alice to you (delayed") && line.contains("): first scheduled"),
                WAIT, "the first scheduled message");
        long arrivedAt = arrived.nanos() / 1_000_000 + nanosToMillis;
        assertThat(arrivedAt).as("arrived at (epoch ms), due at " + newDue)
                .isGreaterThanOrEqualTo(newDue - 20).isLessThanOrEqualTo(newDue + 3_000);
        page.until("the first gone from the panel once sent", d -> page.elements("#scheduled [data-test=scheduled]").isEmpty());
        page.type("@bob marker after the scheduled ones");
        bob.await("alice to you: marker after the scheduled ones", WAIT);
        assertThat(count(bob.transcript(), "first scheduled")).as("times bob shows the first").isEqualTo(1);
        assertThat(bob.transcript()).doesNotContain("second scheduled");

        // The panel is kept live: what alice's console schedules, edits and cancels shows at once.
        JavaProcess aliceConsole = cim.client("alice");
        aliceConsole.type(":delay @bob from the console 1h");
        String scheduledLine = aliceConsole.await("will be sent at", WAIT).text();
        Matcher number = Pattern.compile("scheduled message #(\\d+) ").matcher(scheduledLine);
        assertThat(number.find()).as("a number in '%s'", scheduledLine).isTrue();
        WebElement fromConsole = page.scheduled("from the console");
        assertThat(fromConsole.getDomAttribute("data-number")).isEqualTo(number.group(1));
        aliceConsole.type(":edit " + number.group(1) + " edited on the console");
        page.scheduled("edited on the console");
        aliceConsole.type(":cancel " + number.group(1));
        page.until("the console's message gone from the panel", d -> page.elements("#scheduled [data-test=scheduled]").isEmpty());
        aliceConsole.type(":q");
        assertThat(aliceConsole.awaitExit(WAIT)).isZero();

        // Hostile text, each way: shown as text, never obeyed as markup or as a terminal's escapes.
        String hostile = "<script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\"> \u001b[31mred\u001b[0m";
        bob.type("@alice from bob " + hostile);
        WebElement shown = page.message("from bob <script>");
        assertThat(shown.findElement(By.cssSelector(".text")).getText())
                .isEqualTo("from bob <script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\"> ^[[31mred^[[0m");
        page.setValue(page.element("#input"), "@bob from alice " + hostile);
        page.element("#send").click();
        bob.await("] alice to you: from alice <script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\"> "
                + "^[[31mred^[[0m", WAIT);
        awaitState(page.message("from alice <script>"), "delivered");
        assertThat(page.elements("#messages img, #messages script, #notices img, #notices script")).isEmpty();
        assertThat(page.script("return typeof window.pwned")).isEqualTo("undefined");
        assertThat(bob.transcript()).doesNotContain("\u001b");

        // The server stops and starts again: the page shows it reconnecting, keeps what was typed
        // meanwhile marked as not confirmed, and delivers it once the server is back.
        cim.server().terminate();
        cim.server().awaitExit(WAIT);
        page.awaitConnection("reconnecting");
        assertThat(page.element("#connection").getText()).startsWith("reconnecting in");
        page.type("@bob sent while the server was down");
        WebElement waiting = page.message("sent while the server was down");
        assertThat(waiting.getDomAttribute("data-state")).isEqualTo("pending");
        assertThat(waiting.findElement(By.cssSelector("[data-test=unconfirmed]")).getText()).isEqualTo("not confirmed");
        cim.startServer();
        page.awaitConnection("online", CimSystem.START);
        bob.await("] alice to you: sent while the server was down", CimSystem.START);
        page.until("the held message confirmed", d -> List.of("delivered", "stored").contains(waiting.getDomAttribute("data-state")));
        page.type("@bob marker after the restart");
        bob.await("alice to you: marker after the restart", WAIT);
        assertThat(count(bob.transcript(), "sent while the server was down")).as("times bob shows it").isEqualTo(1);

        // A reload asks for the password again, and opens where the page was, with its history.
        page.driver().navigate().refresh();
        page.logIn("alice", CimSystem.password("alice"));
        assertThat(page.element("#conversation-title").getText()).isEqualTo("@bob");
        page.message("hello bob, from the page");
        page.message("hello alice, from the console");
        page.until("bob in the list of who is online", d -> page.element("#online").getText().contains("bob"));

        // A group in the conversation list, and a message scheduled for it with :at.
        page.type(":create #team bob");
        page.until("#team open, and in the conversation list", d -> page.element("#conversation-title").getText()
                .equals("#team") && page.element("[data-conversation='#team']").getText().startsWith("#team (2)"));
        page.element("[data-conversation='@bob']").click();
        bob.type("#team standup at nine tomorrow");
        page.until("#team's message counted unread", d -> page.element("[data-conversation='#team'] [data-test=unread]")
                .getText().equals("1"));
        page.type(":at tomorrow 9:00 #team standup notes");
        WebElement standup = page.scheduled("standup notes");
        assertThat(standup.findElement(By.cssSelector(".recipient")).getText()).isEqualTo("to #team");
        assertThat(standup.findElement(By.cssSelector("[data-test=due]")).getText()).endsWith(" 09:00");

        page.screenshot(SHOTS.resolve("web-page.png"));
        page.resize(390, 844);
        page.until("one pane at a time on a phone", d -> page.element("#tabs").isDisplayed()
                && page.element("#conversation").isDisplayed() && !page.element("#sidebar").isDisplayed());
        page.screenshot(SHOTS.resolve("web-page-phone.png"));
        page.element("#tabs [data-show=scheduled]").click();
        assertThat(page.element("#scheduled-panel").isDisplayed()).isTrue();
        assertThat(page.element("#conversation").isDisplayed()).isFalse();
        page.resize(1280, 900);

        // Log out: the server ends the session, and the page asks for the password.
        page.element("#logout").click();
        page.awaitConnection("logged-out");
        assertThat(page.element("#connection").getText()).isEqualTo("logged out (the session is ended on the server)");
        assertThat(page.element("#login-view").isDisplayed()).isTrue();
    }

    @Test
    void theInputBox_readsTheConsoleCommands_andSaysWhatWasExpected() {
        page.open(pageUrl());
        // Each line, read by the page's own parser (commands.js) in the browser, with "now" at
        // 2030-01-15 12:00 in the browser's zone and "@bob" the open conversation.
        Map<String, String> expected = new java.util.LinkedHashMap<>();
        expected.put("hello", "{\"kind\":\"send\",\"to\":\"bob\",\"text\":\"hello\"}");
        expected.put("#Team standup in 5", "{\"kind\":\"send\",\"to\":\"#team\",\"text\":\"standup in 5\"}");
        expected.put("@everyone hi all", "{\"kind\":\"send\",\"to\":\"everyone\",\"text\":\"hi all\"}");
        expected.put("::)", "{\"kind\":\"send\",\"to\":\"bob\",\"text\":\":)\"}");
        expected.put(":delay @carol see you 1h30m", "{\"kind\":\"delay\",\"to\":\"carol\",\"text\":\"see you\",\"delayMillis\":5400000}");
        expected.put(":delay lunch? 1.5", "{\"kind\":\"delay\",\"to\":\"bob\",\"text\":\"lunch?\",\"delayMillis\":1500}");
        expected.put(":at 17:30 @carol call me", "at 2030-01-15 17:30:00 to carol: call me");
        expected.put(":at tomorrow 9:00 #team  two  spaces", "at 2030-01-16 09:00:00 to #team: two  spaces");
        expected.put(":move 3 tomorrow 9:00", "move 3 to 2030-01-16 09:00:00");
        expected.put(":create open #lobby Bob carol", "{\"kind\":\"create\",\"group\":\"lobby\",\"open\":true,\"members\":[\"bob\",\"carol\"]}");
        expected.put(":history #team 50", "{\"kind\":\"history\",\"conversation\":\"#team\",\"count\":50}");
        expected.put(":search lunch @bob", "{\"kind\":\"search\",\"text\":\"lunch\",\"conversation\":\"@bob\"}");
        expected.put(":delay hi 2d3d", "error: '2d3d' is not a delay: units must go from largest to smallest, each once "
                + "(expected seconds (5, 1.5) or amounts with units (500ms, 90s, 2m, 1h30m))");
        expected.put(":delay hi 0.0005", "error: the delay 0.0005 is finer than a millisecond");
        expected.put(":delay hi 401d", "error: the delay 401d is over the maximum of 400d (the server's)");
        expected.put(":at 11:00 late", "error: 11:00 has passed (it is 2030-01-15 12:00); for tomorrow: tomorrow 11:00");
        expected.put(":at 2030-02-30 10:00 x", "error: '2030-02-30' is not a date (expected: YYYY-MM-DD, e.g. 2027-01-05)");
        expected.put(":at 24:00 x", "error: '24:00' is not a time of day (expected: 00:00 to 23:59)");
        expected.put(":cancel x", "error: 'x' is not a number; usage: :cancel <number> (numbers are listed by :delays)");
        expected.put(":invite #team", "error: which users? usage: :invite #group user...");
        expected.put(":history @bob 500", "error: '500' is not a number from 1 to 200; usage: :history @user [n] or "
                + ":history #group [n] (n at most 200; repeat it to page back)");
        expected.put(":olu now", "error: :olu takes no arguments, got 'now'");
        expected.put(":nope", "error: unknown command :nope; type :help for the list (to send a text that starts with ':', "
                + "begin it with '::')");
        expected.put("@a..b hi", "error: '@a..b': invalid user name (expected: 1 to 32 of A-Z a-z 0-9 _ - ., beginning and "
                + "ending with a letter or digit, no two of _ - . in a row); usage: @user <text> or #group <text>, e.g. @bob hi");
        expected.put("@bob", "error: the text is missing; usage: @user <text> or #group <text>, e.g. @bob hi");

        @SuppressWarnings("unchecked")
        Map<String, String> read = (Map<String, String>) page.asyncScript("""
                const [lines, done] = [arguments[0], arguments[arguments.length - 1]];
                Promise.all([import('/commands.js'), import('/text.js')]).then(([commands, text]) => {
                    const context = { now: new Date(2030, 0, 15, 12, 0).getTime(), maxDelayMillis: 400 * 86400000,
                        maxTextLength: 4000, conversation: '@bob' };
                    const local = (ms) => text.localDate(ms) + ' ' + text.localTime(ms);
                    const out = {};
                    for (const line of lines) {
                        try {
                            const c = commands.parse(line, context);
                            out[line] = c.kind === 'at' ? 'at ' + local(c.dueAtMillis) + ' to ' + c.to + ': ' + c.text
                                : c.kind === 'move' && c.dueAtMillis ? 'move ' + c.number + ' to ' + local(c.dueAtMillis)
                                : JSON.stringify(c);
                        } catch (e) {
                            out[line] = (e instanceof commands.CommandError ? 'error: ' : 'THROWN: ') + e.message;
                        }
                    }
                    done(out);
                }, (e) => done({ failed: String(e) }));
                """, List.copyOf(expected.keySet()));

        assertThat(read).containsExactlyInAnyOrderEntriesOf(expected);
    }

    @Test
    void theConnection_resendsInOrderUnderTheFirstIds_acknowledgesDeliveries_dropsRepeats_andLogsOut() {
        page.open(pageUrl());
        // protocol.js in the browser, on a socket of the test's own: what it writes, step by step.
        @SuppressWarnings("unchecked")
        List<String> steps = (List<String>) page.asyncScript("""
                const done = arguments[arguments.length - 1];
                import('/protocol.js').then(({ Connection }) => {
                    const log = [];
                    const sockets = [];
                    class Socket {
                        constructor(url, protocol) { this.readyState = 0; this.sent = []; sockets.push(this); log.push('open ' + protocol); }
                        send(text) { this.sent.push(JSON.parse(text)); }
                        close() { this.readyState = 3; this.onclose({ code: 1006 }); }
                        accept() { this.readyState = 1; this.onopen(); }
                        receive(envelope) { this.onmessage({ data: JSON.stringify({ version: 5, ...envelope }) }); }
                        written() { const all = this.sent.map(describe); this.sent = []; return all.join(', '); }
                    }
                    const describe = (e) => Object.keys(e).filter((k) => k !== 'version' && k !== 'requestId')
                        .map((k) => k + (e.requestId ? '#' + e.requestId : '') + ' ' + JSON.stringify(e[k])).join();
                    let queued = [];
                    let timerIds = 0;
                    const timers = {
                        setTimeout: (fn, ms) => { queued.push({ fn, ms, id: ++timerIds }); return timerIds; },
                        clearTimeout: (id) => { queued = queued.filter((t) => t.id !== id); },
                        setInterval: () => 0, clearInterval: () => { },
                    };
                    const flush = () => { const due = queued; queued = []; due.forEach((t) => t.fn()); return due.map((t) => t.ms); };
                    const listener = {
                        state: (s) => log.push('state ' + s.name + (s.reason ? ' (' + s.reason + ')' : '')),
                        loggedIn: (r, resent) => log.push('logged in, resent ' + resent),
                        delivery: (chat) => log.push('shown ' + chat.id),
                        scheduledChange: () => { }, groupNews: () => { }, notice: (t) => log.push('notice ' + t),
                    };
                    const c = new Connection({ url: 'ws://test/ws', listener, openSocket: (u, p) => new Socket(u, p),
                        timers, now: () => 1000, random: () => 0.5, origin: 0x1234n });
                    c.start('alice', 'pw');
                    const first = c.request('send', { recipient: 'bob', text: 'one' });
                    const second = c.request('schedule', { recipient: 'zed', text: 'two', dueAtMillis: '9000' });
                    first.answer.then((r) => log.push('answered 1: ' + r.outcome));
                    second.answer.catch((e) => log.push('refused 2: ' + e.code + ' ' + e.message));
                    log.push('id of 1: ' + c.messageId(first.id));
                    const s1 = sockets[0];
                    s1.accept();
                    log.push('wrote ' + s1.written());
                    s1.receive({ loginResult: { ok: true, sessionToken: 'T', heartbeatIntervalMillis: '15000' } });
                    log.push('wrote ' + s1.written());
                    s1.receive({ receipts: { requestIds: ['1'], sessions: [1] } });
                    for (const id of ['b-1', 'b-1', 'b-2']) {
                        s1.receive({ delivery: { chat: { id, sender: 'bob', recipient: 'alice', text: 'x' } } });
                    }
                    flush();
                    log.push('wrote ' + s1.written());
                    s1.close();
                    log.push('waits ' + flush().join());
                    const s2 = sockets[1];
                    s2.accept();
                    log.push('wrote ' + s2.written());
                    s2.receive({ loginResult: { ok: true } });
                    log.push('wrote ' + s2.written());
                    s2.receive({ delivery: { chat: { id: 'b-2', sender: 'bob', recipient: 'alice', text: 'x' } } });
                    flush();
                    log.push('wrote ' + s2.written());
                    s2.receive({ requestId: '2', error: { code: 'UNKNOWN_USER', message: 'no user zed' } });
                    c.logout();
                    log.push('wrote ' + s2.written());
                    s2.receive({ error: { code: 'NOT_LOGGED_IN', message: 'logged out', closing: true } });
                    s2.close();
                    log.push('sockets ' + sockets.length + ', timers ' + flush().length);
                    setTimeout(() => done(log), 0);
                }, (e) => done(['failed: ' + e]));
                """);

        assertThat(steps).containsExactly(
                "state connecting",
                "open cim.json",
                "id of 1: 0000000000001234-1",
                "wrote login {\"userName\":\"alice\",\"password\":\"pw\",\"token\":\"\",\"origin\":\"4660\"}",
                "state online",
                "logged in, resent 2",
                "wrote send#1 {\"recipient\":\"bob\",\"text\":\"one\"}, schedule#2 {\"recipient\":\"zed\",\"text\":\"two\",\"dueAtMillis\":\"9000\"}",
                "shown b-1",
                "shown b-2",
                "wrote ack {\"received\":\"3\"}",
                "state reconnecting (lost the connection)",
                "state connecting",
                "open cim.json",
                "waits 375",
                "wrote login {\"userName\":\"alice\",\"password\":\"\",\"token\":\"T\",\"origin\":\"4660\"}",
                "state online",
                "logged in, resent 1",
                "wrote schedule#2 {\"recipient\":\"zed\",\"text\":\"two\",\"dueAtMillis\":\"9000\"}",
                "wrote ack {\"received\":\"1\"}",
                "state logging-out",
                "wrote logout {}",
                "state logged-out (the server said: logged out)",
                "sockets 2, timers 0",
                "answered 1: DELIVERED",
                "refused 2: UNKNOWN_USER no user zed");
    }

    private void awaitState(WebElement message, String state) {
        page.until("the message " + state, d -> state.equals(message.getDomAttribute("data-state")));
    }

    /** The value a datetime-local input takes for epoch millis, in the browser's own zone (text.js says). */
    private String pickerValue(long millis) {
        return (String) page.asyncScript("const done = arguments[arguments.length - 1];"
                + "import('/text.js').then((text) => done(text.pickerValue(arguments[0])), (e) => done(String(e)));", millis);
    }

    private static int count(String text, String part) {
        return (int) Pattern.compile(Pattern.quote(part)).matcher(text).results().count();
    }
}
