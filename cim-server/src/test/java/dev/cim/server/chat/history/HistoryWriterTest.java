package dev.cim.server.chat.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;


import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.wheel.DelayScheduler;
import dev.cim.server.chat.platform.Platform;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.store.Conversation;
import dev.cim.server.store.ConversationLog;
import dev.cim.server.support.StepClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The history written behind the router: in order per conversation, bounded when the store falls behind. */
class HistoryWriterTest {

    private final UserLanes lanes = new UserLanes(1);
    private final List<Chat> written = new CopyOnWriteArrayList<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final CountDownLatch storeAnswers = new CountDownLatch(1);
    /** When set, every write fails with it. */
    private volatile RuntimeException storeFails;
    private final ConversationLog log = new ConversationLog() {
        @Override
        public void append(List<Chat> chats, long nowMillis, Duration retention, long maxEntries) {
            if (storeFails != null) {
                throw storeFails;
            }
            try {
                storeAnswers.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            written.addAll(chats);
        }

        @Override
        public List<Entry> before(Conversation conversation, String before, int count) {
            return List.of();
        }

        @Override
        public List<Entry> after(Conversation conversation, String after, int count) {
            return List.of();
        }

        @Override
        public List<Entry> afterTime(Conversation conversation, long afterMillis, int count) {
            return List.of();
        }

        @Override
        public List<Recent> recent(String user, long sinceMillis, int count) {
            return List.of();
        }

        @Override
        public Found search(Conversation conversation, String before, List<String> words, int maxRead, int maxHits) {
            return new Found(List.of(), "", 0);
        }
    };
    private final DelayScheduler wheel = DelayScheduler.builder().tick(Duration.ofMillis(10)).build();
    private final HistoryWriter writer = new HistoryWriter(log, platform(Clock.systemUTC()),
            new HistorySettings(Duration.ofDays(1), 1000));

    @AfterEach
    void stop() {
        storeAnswers.countDown();
        wheel.stopNow();
        lanes.close(1_000);
    }

    private Platform platform(Clock clock) {
        return new Platform(lanes, wheel, clock, System::nanoTime, meters);
    }

    private static Chat chat(String to, int n) {
        return Chat.newBuilder().setId("id-" + n).setSender("alice").setRecipient(to).setText("m" + n).build();
    }

    @Test
    void record_writesPrivateMessagesInOrder_andNeitherGroupsNorBroadcasts() {
        storeAnswers.countDown();
        for (int i = 0; i < 100; i++) {
            writer.record(chat("bob", i));
        }
        writer.record(chat("#team", 100));
        writer.record(chat("everyone", 101));

        await().atMost(Duration.ofSeconds(10)).until(() -> written.size() == 100);
        assertThat(written).extracting(Chat::getText).startsWith("m0", "m1").endsWith("m99").hasSize(100);
    }

    @Test
    void record_pastTheBacklog_leavesMessagesOut_andCountsThem() {
        for (int i = 0; i < HistoryWriter.MAX_BACKLOG + 5; i++) {
            writer.record(chat("bob", i)); // the store does not answer: they wait
        }

        assertThat(meters.get("cim.history.dropped").counter().count()).isEqualTo(5.0);
        storeAnswers.countDown();
        await().atMost(Duration.ofSeconds(30)).until(() -> written.size() == HistoryWriter.MAX_BACKLOG);
        assertThat(meters.get("cim.history.backlog").gauge().value()).isZero();
    }

    @Test
    void failedWrites_areCounted_andLoggedAtMostOnceEveryTenSeconds_sayingHowMany() {
        storeFails = new IllegalStateException("Redis is full");
        StepClock clock = new StepClock();
        HistoryWriter failing = new HistoryWriter(log, platform(clock), new HistorySettings(Duration.ofDays(1), 1000));
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(HistoryWriter.class);
        logger.addAppender(lines);
        lines.start();
        try {
            for (int i = 0; i < 1000; i++) {
                failing.record(chat("bob", i));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> meters.get("cim.history.failed").counter().count() == 1000);
            clock.advance(Duration.ofMillis(HistoryWriter.FAILURE_LOG_MILLIS - 1));
            failing.record(chat("bob", 1000));
            await().atMost(Duration.ofSeconds(10)).until(() -> meters.get("cim.history.failed").counter().count() == 1001);
            clock.advance(Duration.ofMillis(1));
            failing.record(chat("bob", 1001));
            await().atMost(Duration.ofSeconds(10)).until(() -> meters.get("cim.history.failed").counter().count() == 1002);
            // the line follows the count, on the lane's thread
            await().atMost(Duration.ofSeconds(10)).until(() -> lines.list.size() >= 2);

            assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).hasSize(2)
                    .allSatisfy(line -> assertThat(line).endsWith("java.lang.IllegalStateException: Redis is full"))
                    .last().satisfies(line -> assertThat(line).startsWith(
                            "Could not write " + (1002 - firstLineCount(lines)) + " messages to their conversations' "
                                    + "history in the last 10 s"));
            assertThat(meters.get("cim.history.backlog").gauge().value()).isZero();
        } finally {
            logger.detachAppender(lines);
        }
    }

    /** How many failures the first line counted: the first batch, however the lane cut the 1,000. */
    private static long firstLineCount(ListAppender<ILoggingEvent> lines) {
        String first = lines.list.get(0).getFormattedMessage();
        return Long.parseLong(first.substring("Could not write ".length(), first.indexOf(" messages")));
    }
}
