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

    @RegisterExtension
    static final CimSystem cim = new CimSystem()
            .withServerArgs("--cim.server.idle-timeout=" + IDLE_TIMEOUT.toSeconds() + "s");

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
    void dora_onThePage_schedulesWhenOnline_recurring_andInTheirZone_andReadsTheRecord() throws Exception {
        JavaProcess erin = cim.client("erin");
        JavaProcess fred = cim.client("fred"); // fred has an account, and logs out
        fred.type(":q");
        assertThat(fred.awaitExit(WAIT)).isZero();
        page.open(pageUrl());
        page.logIn("dora", CimSystem.password("dora"));

        // A series of two, a second apart: erin gets both, the panel empties, and dora's
        // conversation with erin shows them as occurrences of a series.
        page.type(":every 1s times 2 @erin tick");
        await().atMost(WAIT).until(() -> count(erin.transcript(), ": tick") == 2);
        page.until("the series gone from the panel once done", d -> page.elements("#scheduled [data-test=scheduled]")
                .stream().noneMatch(m -> m.getText().contains("tick")));
        page.element("#open-input").sendKeys("@erin");
        page.element("#open-form button").click();
        page.until("both occurrences marked", d -> page.elements("#messages [data-test=message] .delayed").stream()
                .map(WebElement::getText).toList().containsAll(List.of("#1 of a series", "#2 of a series")));

        // A series shows its rule and next occurrence; Skip moves it on.
        page.type(":every 1d times 3 @erin daily standup");
        WebElement daily = page.scheduled("daily standup");
        WebElement rule = daily.findElement(By.cssSelector("[data-test=rule]"));
        page.until("the rule shown", d -> rule.getText().equals("every 1d, 3 times; next: occurrence 1 of 3"));
        assertThat(daily.findElement(By.cssSelector("[data-test=reschedule]")).isDisplayed()).isFalse();
        long firstDue = Long.parseLong(daily.findElement(By.cssSelector("[data-test=due]")).getDomAttribute("data-due"));
        daily.findElement(By.cssSelector("[data-test=skip]")).click();
        page.until("the next occurrence shown", d -> rule.getText().endsWith("next: occurrence 2 of 3"));
        assertThat(Long.parseLong(daily.findElement(By.cssSelector("[data-test=due]")).getDomAttribute("data-due")))
                .isEqualTo(firstDue + Duration.ofDays(1).toMillis());
        daily.findElement(By.cssSelector("[data-test=cancel]")).click();
        page.until("the series cancelled", d -> page.elements("#scheduled [data-test=scheduled]").isEmpty());

        // When online: fred is away, so it waits, shown as such; it goes when he logs in.
        page.type(":delay @fred welcome back, fred online");
        WebElement waiting = page.scheduled("welcome back, fred");
        assertThat(waiting.findElement(By.cssSelector("[data-test=due]")).getText()).isEqualTo("when fred logs in");
        assertThat(waiting.getDomAttribute("data-kind")).isEqualTo("online");
        JavaProcess fredAgain = cim.client("fred");
        fredAgain.await(line -> line.contains("dora to you") && line.contains("welcome back, fred"), WAIT,
                "the message waiting for fred");
        page.until("the message gone from the panel once sent", d -> page.elements("#scheduled [data-test=scheduled]")
                .isEmpty());

        // gina, in another tab, sets her zone, and sends dora a series and a message for when she is
        // online (she is: at once); dora's page marks each.
        String doraTab = page.openTab(pageUrl());
        page.logIn("gina", CimSystem.password("gina"));
        page.type(":tz Asia/Tokyo");
        page.notice("your time zone is now Asia/Tokyo");
        page.type(":tz");
        page.notice("your time zone: Asia/Tokyo (kept on your account)");
        page.type(":every 1s times 2 @dora beat");
        page.type(":delay @dora are you there? online");
        page.until("gina's panel empty", d -> page.notices().contains("occurrence 2) was sent; the series has ended")
                && page.elements("#scheduled [data-test=scheduled]").isEmpty());
        page.showTab(doraTab);
        page.until("gina's conversation listed", d -> page.elements("[data-conversation='@gina']").stream().findFirst()
                .orElse(null)).click();
        page.until("gina's messages marked", d -> page.elements("#messages [data-test=message] .delayed").stream()
                .map(WebElement::getText).toList().containsAll(List.of("#1 of a series", "#2 of a series", "when online")));
        assertThat(page.message("are you there?").findElement(By.cssSelector(".delayed")).getText()).isEqualTo("when online");

        // 9:00 their time: read in gina's zone, shown in hers beside the browser's.
        page.type(":at 9:00 their @gina good morning");
        WebElement morning = page.scheduled("good morning");
        WebElement their = page.until("gina's time shown", d -> {
            WebElement shown = morning.findElement(By.cssSelector("[data-test=their-time]"));
            return shown.isDisplayed() ? shown : null;
        });
        assertThat(their.getText()).endsWith("09:00 their time (Asia/Tokyo)");
        long due = Long.parseLong(morning.findElement(By.cssSelector("[data-test=due]")).getDomAttribute("data-due"));
        assertThat(java.time.Instant.ofEpochMilli(due).atZone(java.time.ZoneId.of("Asia/Tokyo")).toLocalTime())
                .isEqualTo(java.time.LocalTime.of(9, 0));

        // The record: the two ticks and the message for fred, sent.
        page.type(":sent");
        page.notice("scheduled messages done with, newest first:");
        String record = page.notices();
        assertThat(record).containsPattern("#\\d+ \\(occurrence 1\\)  to erin  tick  due [^,]+, sent [^(]+ \\(")
                .containsPattern("#\\d+ \\(occurrence 2\\)  to erin  tick  due [^,]+, sent [^(]+ \\(")
                .contains("to fred  welcome back, fred  when fred logged in, sent ");
        page.screenshot(SHOTS.resolve("web-page-scheduling.png"));
        assertThat(count(erin.transcript(), ": tick")).as("ticks erin shows").isEqualTo(2);
        assertThat(count(fredAgain.transcript(), "welcome back, fred")).as("times fred shows it").isEqualTo(1);
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
        // Issue 28: when online, recurring, their time or a zone's, a late policy, skip, the record, the zone.
        expected.put(":delay @Fred see you online", "{\"kind\":\"online\",\"to\":\"fred\",\"text\":\"see you\","
                + "\"deadlineMillis\":0}");
        expected.put(":delay @fred see you online until 2d", "{\"kind\":\"online\",\"to\":\"fred\",\"text\":\"see you\","
                + "\"deadlineMillis\":\"2030-01-17 12:00:00\"}");
        expected.put(":delay see you online until 2030-01-20", "{\"kind\":\"online\",\"to\":\"bob\",\"text\":\"see you\","
                + "\"deadlineMillis\":\"2030-01-20 23:59:59\"}");
        expected.put(":delay #team hi online", "error: 'online' waits for one user to log in (expected: @user)");
        expected.put(":delay @everyone hi online", "error: 'online' waits for one user to log in (expected: @user)");
        expected.put(":delay hi online until 2029-12-31", "error: 2029-12-31 has passed (it is 2030-01-15; "
                + "expected: a delay such as 2d or a date such as 2026-12-31)");
        expected.put(":delay hi online until", "error: the end is missing after 'online until' (expected: a delay such as 2d "
                + "or a date such as 2026-12-31); usage: :delay [@user|#group] <text> <delay> or :delay [@user] <text> "
                + "online [until <end>], e.g. :delay see you soon 5m");
        expected.put(":delay hi online late drop 5m", "error: a message sent when its recipient logs in is never late "
                + "(expected: online until <end> to give up at a time, without late drop)");
        expected.put(":delay @bob on time 5m late drop after 1m", "{\"kind\":\"delay\",\"to\":\"bob\",\"text\":\"on time\","
                + "\"delayMillis\":300000,\"dropLateAfterMillis\":60000}");
        expected.put(":delay hi 5m late send", "{\"kind\":\"delay\",\"to\":\"bob\",\"text\":\"hi\",\"delayMillis\":300000}");
        expected.put(":delay hi 5m late drop", "error: the late policy's duration is missing (expected: late drop <duration>, "
                + "late drop after <duration> or late send)");
        expected.put(":every 1s times 2 @bob tick", "{\"kind\":\"every\",\"to\":\"bob\",\"text\":\"tick\",\"every\":\"1s\","
                + "\"zone\":\"Europe/Berlin\",\"times\":2}");
        expected.put(":every weekday 9:00 until 2030-03-01 late drop 10m #team standup", "{\"kind\":\"every\",\"to\":\"#team\","
                + "\"text\":\"standup\",\"every\":\"weekday 9:00\",\"zone\":\"Europe/Berlin\","
                + "\"untilMillis\":\"2030-03-01 23:59:59\",\"dropLateAfterMillis\":600000}");
        expected.put(":every mon,thu 17:30 @carol  call  me", "{\"kind\":\"every\",\"to\":\"carol\",\"text\":\"call  me\","
                + "\"every\":\"mon,thu 17:30\",\"zone\":\"Europe/Berlin\"}");
        expected.put(":every 1st 10:00 times 12 rent", "{\"kind\":\"every\",\"to\":\"bob\",\"text\":\"rent\","
                + "\"every\":\"1st 10:00\",\"zone\":\"Europe/Berlin\",\"times\":12}");
        expected.put(":every \"0 9 * * 1-5\" #team standup", "{\"kind\":\"every\",\"to\":\"#team\",\"text\":\"standup\","
                + "\"every\":\"0 9 * * 1-5\",\"zone\":\"Europe/Berlin\"}");
        expected.put(":every 2h late for dinner", "{\"kind\":\"every\",\"to\":\"bob\",\"text\":\"late for dinner\","
                + "\"every\":\"2h\",\"zone\":\"Europe/Berlin\"}");
        String everyUsage = "usage: :every <rule> [until <end>|times <N>] [late drop <duration>] [@user|#group] <text>, "
                + "e.g. :every weekday 9:00 #team standup";
        expected.put(":every @bob hi", "error: the rule is missing; " + everyUsage);
        expected.put(":every 1d", "error: the text is missing; " + everyUsage);
        expected.put(":every 1d times 0 hi", "error: '0' is not a number of times (expected: times <N>, N from 1); "
                + everyUsage);
        expected.put(":every \"0 9 * * 1-5 standup", "error: the rule's closing quote is missing; " + everyUsage);
        expected.put(":every 1d until 1d until 2d hi", "error: 'until' twice; " + everyUsage);
        expected.put(":every 1d until soon hi", "error: 'soon' is not an end (expected: a delay such as 2d or a date such "
                + "as 2026-12-31)");
        expected.put(":at 9:00 their @Bob good morning", "{\"kind\":\"at\",\"to\":\"bob\",\"text\":\"good morning\","
                + "\"at\":\"9:00\",\"atZone\":\"their\"}");
        expected.put(":at 2030-02-01 17:30 asia/tokyo late drop 5m #team hi", "{\"kind\":\"at\",\"to\":\"#team\","
                + "\"text\":\"hi\",\"at\":\"2030-02-01 17:30\",\"atZone\":\"Asia/Tokyo\",\"dropLateAfterMillis\":300000}");
        expected.put(":at 17:30 late drop after 1m call me", "at 2030-01-15 17:30:00 to bob: call me, late drop 60000");
        expected.put(":at 17:30 late for dinner", "at 2030-01-15 17:30:00 to bob: late for dinner");
        expected.put(":at 9:00 their #team hi", "error: 'their' time is one user's (expected: @user)");
        expected.put(":at tomorrow 9:00 their @bob hi", "error: 'tomorrow' is this browser's day, not the zone's "
                + "(expected: HH:MM, the next time the zone's clock shows it, or YYYY-MM-DD HH:MM)");
        expected.put(":at 9:00 Mars/Olympus @bob hi", "error: unknown time zone 'Mars/Olympus' (expected: an IANA zone "
                + "such as Europe/Berlin)");
        expected.put(":skip #2", "{\"kind\":\"skip\",\"number\":2}");
        expected.put(":skip", "error: the number is missing; usage: :skip <number> (numbers are listed by :delays)");
        expected.put(":sent", "{\"kind\":\"sent\",\"limit\":20}");
        expected.put(":sent 5", "{\"kind\":\"sent\",\"limit\":5}");
        expected.put(":sent 0", "error: '0' is not a number from 1 to 200; usage: :sent [N] (N from 1 to 200, 20 if not given)");
        expected.put(":tz", "{\"kind\":\"tz\"}");
        expected.put(":tz asia/tokyo", "{\"kind\":\"tz\",\"zone\":\"Asia/Tokyo\"}");
        expected.put(":tz Mars/Olympus", "error: unknown time zone 'Mars/Olympus' (expected: an IANA zone such as Europe/Berlin)");
        expected.put(":tz Asia/Tokyo UTC", "error: one zone, please; usage: :tz shows your time zone, :tz <Zone> sets it, "
                + "e.g. :tz Europe/Berlin");

        @SuppressWarnings("unchecked")
        Map<String, String> read = (Map<String, String>) page.asyncScript("""
                const [lines, done] = [arguments[0], arguments[arguments.length - 1]];
                Promise.all([import('/commands.js'), import('/text.js')]).then(([commands, text]) => {
                    const context = { now: new Date(2030, 0, 15, 12, 0).getTime(), maxDelayMillis: 400 * 86400000,
                        maxTextLength: 4000, conversation: '@bob', zone: 'Europe/Berlin' };
                    const local = (ms) => text.localDate(ms) + ' ' + text.localTime(ms);
                    // Ends are local times, written as such (the browser's zone is the machine's).
                    const ends = (key, value) => (key === 'untilMillis' || key === 'deadlineMillis') && value > 0
                        ? local(value) : value;
                    const out = {};
                    for (const line of lines) {
                        try {
                            const c = commands.parse(line, context);
                            out[line] = c.kind === 'at' && c.dueAtMillis ? 'at ' + local(c.dueAtMillis) + ' to ' + c.to
                                    + ': ' + c.text + (c.dropLateAfterMillis ? ', late drop ' + c.dropLateAfterMillis : '')
                                : c.kind === 'move' && c.dueAtMillis ? 'move ' + c.number + ' to ' + local(c.dueAtMillis)
                                : JSON.stringify(c, ends);
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
                        settings: (s) => log.push('settings news ' + s.zone),
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
                    s2.receive({ settings: { zone: 'Asia/Tokyo' } });
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
                "settings news Asia/Tokyo",
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
