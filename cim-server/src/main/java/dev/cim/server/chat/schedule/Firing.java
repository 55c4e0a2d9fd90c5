package dev.cim.server.chat.schedule;

import com.google.protobuf.ByteString;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.schedule.DelayFormat;
import java.time.Duration;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.server.chat.routing.RouteGate;
import dev.cim.server.chat.routing.Router;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.Tracker;
import dev.cim.server.store.ScheduledStore;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Sends claimed scheduled messages: each becomes a chat, marked with its delay, routed like any
 * other from one source (a thread of its own and a {@link RouteGate}, so that one sender's messages
 * to one recipient keep their order), and its outcome goes to {@link Finishing}. A message later
 * than its late policy allows is dropped instead; of a recurring one whose later occurrences are
 * due too (the server was down), only the latest is sent, with how many were missed. A series whose
 * earlier claim ran out unfinished sends its claimed occurrence again first, under its own id, so
 * that the count is exact whether or not the node that held it had sent it.
 */
final class Firing implements AutoCloseable {

    private final Router router;
    private final Clock clock;
    private final ScheduleMetrics metrics;
    private final Finishing finishing;
    private final RouteGate gate = new RouteGate();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "cim-scheduled-firer");
        t.setDaemon(true);
        return t;
    });

    Firing(Router router, Clock clock, ScheduleMetrics metrics, Finishing finishing) {
        this.router = router;
        this.clock = clock;
        this.metrics = metrics;
        this.finishing = finishing;
    }

    /** A claimed message to send, and whom to answer: see {@link #fire}. */
    private record Job(String user, Scheduled claimed, Session releasedBy, long requestId) {
    }

    /**
     * Sends {@code message} of {@code user}, claimed.
     *
     * @param lapsed     an earlier claim of it ran out unfinished ({@link ScheduledStore.Claim.Claimed#lapsed})
     * @param releasedBy the session whose client asked to send it (answered as request {@code requestId}),
     *                   or null when the server's own job fired
     */
    void fire(String user, Scheduled claimed, boolean lapsed, Session releasedBy, long requestId) {
        Job job = new Job(user, claimed, releasedBy, requestId);
        if (OnlineWaits.whenOnline(claimed)) {
            // Its deadline came: its recipient did not log in in time.
            finishing.add(Finishing.Outcome.dropped(user, claimed, claimed, "not sent: " + claimed.getRecipient()
                    + " did not log in by its deadline", releasedBy, requestId));
            return;
        }
        Occurrences.Due due = Occurrences.latestDue(claimed, clock.millis());
        if (lapsed && due.missed() > 0) {
            // The node that held it before may have sent the claimed occurrence and died before the
            // series moved on: it is sent again first, under its own id (a client that showed it drops
            // it), and only the occurrences between it and the latest count as missed.
            send(job, new Occurrences.Due(claimed, 0), false, first -> {
                if (first.dropped() || first.failure() != null) {
                    finishing.add(first); // the series moves on from it, or it is tried again
                } else {
                    send(job, new Occurrences.Due(due.occurrence(), due.missed() - 1), false, finishing::add);
                }
            });
            return;
        }
        send(job, due, false, finishing::add);
    }

    /** Sends "when online" message {@code claimed} of {@code user}: its recipient logged in. */
    void fireOnline(String user, Scheduled claimed) {
        send(new Job(user, claimed, null, 0), new Occurrences.Due(claimed, 0), true, finishing::add);
    }

    /** Sends {@code due} of the job's message, or drops it by its late policy; {@code outcome} hears which. */
    private void send(Job job, Occurrences.Due due, boolean recipientOnline, Consumer<Finishing.Outcome> outcome) {
        String user = job.user();
        Session releasedBy = job.releasedBy();
        boolean byServer = releasedBy == null;
        long now = clock.millis();
        Scheduled message = due.occurrence();
        long late = recipientOnline ? 0 : now - message.getDueAtMillis();
        long limit = message.getTiming().getDropLateAfterMillis();
        if (limit > 0 && late > limit) {
            outcome.accept(Finishing.Outcome.dropped(user, job.claimed(), message, "not sent: it would have gone "
                    + DelayFormat.rounded(Duration.ofMillis(late)) + " late, past its limit of "
                    + DelayFormat.rounded(Duration.ofMillis(limit)), releasedBy, job.requestId()));
            return;
        }
        Chat.Delay.Builder delay = Chat.Delay.newBuilder()
                .setRequestedMillis(message.getRequestedMillis())
                .setDueAtMillis(recipientOnline ? now : message.getDueAtMillis())
                .setFiredByServer(byServer)
                .setOccurrence(message.getOccurrence())
                .setMissed(due.missed())
                .setWhenOnline(recipientOnline);
        Chat chat = Chat.newBuilder()
                .setId(Occurrences.chatId(message))
                .setSender(user)
                .setRecipient(message.getRecipient())
                .setText(message.getText())
                .setSentAtMillis(now)
                .setDelay(delay)
                .build();
        if (!recipientOnline) {
            metrics.sent(message.getDueAtMillis(), now, byServer);
        }
        String note = due.missed() == 0 ? "" : due.missed() + (due.missed() == 1 ? " occurrence" : " occurrences")
                + " missed while the server was down; sent the latest, " + DelayFormat.rounded(Duration.ofMillis(late))
                + " late";
        Tracker tracker = new Tracker(0, ByteString.copyFromUtf8(chat.getId()), message.getRecipient(),
                (t, sessions, stored, failure) -> outcome.accept(Finishing.Outcome.sent(user, job.claimed(), message,
                        failure, note, releasedBy, job.requestId())));
        thread.execute(() -> router.route(chat, tracker, null, gate));
    }

    /** Stops the thread once what it holds is routed. */
    @Override
    public void close() {
        thread.shutdown();
    }
}
