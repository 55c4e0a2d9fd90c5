package dev.cim.client.delay;

import dev.cim.client.command.Command.Recipient;
import dev.cim.client.command.DelayFormat;
import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.Job;
import dev.cim.common.wheel.PendingJob;
import dev.cim.common.wheel.ScheduledJob;
import dev.cim.common.wheel.StopReport;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The client's delayed messages. Each {@code :delay} becomes a {@link Job} on the
 * {@link DelayScheduler} bean from {@code cim-common}; when it fires, the message goes to the
 * {@link ChatSender} (which holds it if the connection is down) and the user is told it was sent.
 */
public final class DelayedMessages {

    private final DelayScheduler wheel;
    private final ChatSender sender;
    private final Consumer<String> notices;
    private final Map<Long, ScheduledJob> mine = new ConcurrentHashMap<>();

    /**
     * @param wheel where the jobs wait
     * @param sender what sends a message once it is due
     * @param notices where lines for the user go, e.g. "sent delayed message #3"
     */
    public DelayedMessages(DelayScheduler wheel, ChatSender sender, Consumer<String> notices) {
        this.wheel = wheel;
        this.sender = sender;
        this.notices = notices;
    }

    /** Schedules {@code text} for {@code to}, {@code delay} from now; returns the handle (id, due time). */
    public ScheduledJob schedule(Recipient to, String text, Duration delay) {
        DelayedSend send = new DelayedSend(to, text, delay);
        ScheduledJob handle = wheel.schedule(send, delay);
        mine.put(handle.id(), handle);
        send.handle.complete(handle);
        return handle;
    }

    /** The delayed messages not yet sent, in due order. */
    public List<PendingJob> pending() {
        return wheel.pendingJobs().stream().filter(job -> mine.containsKey(job.id())).toList();
    }

    /** How many delayed messages are waiting. */
    public int count() {
        return mine.size();
    }

    /**
     * Cancels a delayed message.
     *
     * @return a line for the user saying what happened
     */
    public String cancel(long id) {
        ScheduledJob handle = mine.get(id);
        if (handle == null) {
            return "no delayed message #" + id + " is waiting (see :delays)";
        }
        String what = handle.description(); // read first: a cancelled job is released
        if (!handle.cancel()) {
            return "delayed message #" + id + " is being sent already";
        }
        mine.remove(id);
        return "cancelled delayed message #" + id + " (" + what + ")";
    }

    /** Waits up to {@code timeout} for the waiting messages to be sent at their times; see {@link DelayScheduler#drain}. */
    public StopReport sendAllThenStop(Duration timeout) throws InterruptedException {
        return wheel.drain(timeout);
    }

    /** Discards every waiting message; returns them. */
    public StopReport discardAll() {
        StopReport report = wheel.stopNow();
        mine.clear();
        return report;
    }

    /** The due time of the last waiting message, if any. */
    public Optional<ScheduledJob> last() {
        return mine.values().stream().max(Comparator.comparing(ScheduledJob::dueAt));
    }

    /** The job: sends the message when due. Described as "to @bob: text" in listings and logs. */
    private final class DelayedSend implements Job {

        /** Completed right after scheduling; a zero delay can fire before schedule() returns. */
        final CompletableFuture<ScheduledJob> handle = new CompletableFuture<>();
        private final Recipient to;
        private final String text;
        private final Duration delay;

        DelayedSend(Recipient to, String text, Duration delay) {
            this.to = to;
            this.text = text;
            this.delay = delay;
        }

        @Override
        public void run() {
            ScheduledJob self = handle.join();
            mine.remove(self.id());
            sender.send(new OutgoingChat(to, text, delay, self.dueAt()));
            notices.accept("sent delayed message #" + self.id() + " to " + to + " (asked " + DelayFormat.format(delay)
                    + " ago): " + text);
        }

        @Override
        public String description() {
            return "to " + to + ": " + text;
        }
    }
}
