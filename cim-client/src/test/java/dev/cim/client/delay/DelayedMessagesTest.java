package dev.cim.client.delay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.client.command.Command.Recipient;
import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.PendingJob;
import dev.cim.common.wheel.ScheduledJob;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DelayedMessagesTest {

    private final DelayScheduler wheel = DelayScheduler.builder().tick(Duration.ofMillis(1)).build();
    private final BlockingQueue<OutgoingChat> sent = new LinkedBlockingQueue<>();
    private final BlockingQueue<Instant> sentAt = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> notices = new LinkedBlockingQueue<>();
    private final DelayedMessages delayed = new DelayedMessages(wheel, chat -> {
        sentAt.add(Instant.now());
        sent.add(chat);
    }, notices::add);

    @AfterEach
    void stop() {
        wheel.stopNow();
    }

    @Test
    void aDelayedMessage_isSentWhenDueMarkedWithItsDelayAndTheUserIsTold() throws Exception {
        ScheduledJob handle = delayed.schedule(Recipient.user("bob"), "see you at five", Duration.ofMillis(150));

        OutgoingChat chat = sent.poll(10, TimeUnit.SECONDS);

        assertThat(chat).isEqualTo(new OutgoingChat(Recipient.user("bob"), "see you at five", Duration.ofMillis(150), handle.dueAt()));
        assertThat(sentAt.take()).isAfterOrEqualTo(handle.dueAt());
        assertThat(notices.poll(10, TimeUnit.SECONDS))
                .isEqualTo("sent delayed message #" + handle.id() + " to @bob (asked 150ms ago): see you at five");
        assertThat(delayed.count()).isZero();
    }

    @Test
    void aZeroDelay_isSentAtOnce() throws Exception {
        delayed.schedule(Recipient.EVERYONE, "now", Duration.ZERO);

        assertThat(sent.poll(10, TimeUnit.SECONDS)).extracting(OutgoingChat::text).isEqualTo("now");
    }

    @Test
    void pending_listsOnlyWaitingDelayedMessagesInDueOrder() {
        ScheduledJob later = delayed.schedule(Recipient.EVERYONE, "later", Duration.ofHours(2));
        ScheduledJob sooner = delayed.schedule(Recipient.user("bob"), "sooner", Duration.ofHours(1));
        wheel.schedule(() -> { }, Duration.ofMinutes(1)); // not a delayed message

        assertThat(delayed.pending()).extracting(PendingJob::id, PendingJob::description)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(sooner.id(), "to @bob: sooner"),
                        org.assertj.core.groups.Tuple.tuple(later.id(), "to everyone: later"));
        assertThat(delayed.count()).isEqualTo(2);
        assertThat(delayed.last()).contains(later);
    }

    @Test
    void cancel_stopsTheMessageAndSaysSo() throws Exception {
        ScheduledJob handle = delayed.schedule(Recipient.EVERYONE, "never", Duration.ofMillis(100));
        ScheduledJob kept = delayed.schedule(Recipient.EVERYONE, "kept", Duration.ofMillis(120));

        assertThat(delayed.cancel(handle.id())).isEqualTo("cancelled delayed message #" + handle.id() + " (to everyone: never)");
        assertThat(delayed.cancel(handle.id())).isEqualTo("no delayed message #" + handle.id() + " is waiting (see :delays)");

        assertThat(sent.poll(10, TimeUnit.SECONDS)).extracting(OutgoingChat::text).isEqualTo("kept");
        assertThat(sent).isEmpty();
        assertThat(kept.dueAt()).isAfter(handle.dueAt());
    }

    @Test
    void sendAllThenStop_sendsWhatIsWaitingBeforeReturning() throws Exception {
        delayed.schedule(Recipient.EVERYONE, "one", Duration.ofMillis(50));
        delayed.schedule(Recipient.EVERYONE, "two", Duration.ofMillis(80));

        assertThat(delayed.sendAllThenStop(Duration.ofSeconds(10)).isComplete()).isTrue();

        assertThat(sent).extracting(OutgoingChat::text).containsExactly("one", "two");
    }

    @Test
    void discardAll_dropsWhatIsWaitingAndReportsIt() {
        delayed.schedule(Recipient.EVERYONE, "dropped", Duration.ofHours(1));

        assertThat(delayed.discardAll().discarded()).extracting(PendingJob::description).containsExactly("to everyone: dropped");
        assertThat(delayed.count()).isZero();
    }
}
