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
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Sends claimed scheduled messages: each becomes a chat, marked with its delay, routed like any
 * other from one source (a thread of its own and a {@link RouteGate}, so that one sender's messages
 * to one recipient keep their order), and its outcome goes to {@link Finishing}. A message later
 * than its late policy allows is dropped instead; of a recurring one whose later occurrences are
 * due too (the server was down), only the latest is sent, with how many were missed.
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

    /**
     * Sends {@code message} of {@code user}, claimed.
     *
     * @param releasedBy the session whose client asked to send it (answered as request {@code requestId}),
     *                   or null when the server's own job fired
     */
    void fire(String user, Scheduled claimed, Session releasedBy, long requestId) {
        if (OnlineWaits.whenOnline(claimed)) {
            // Its deadline came: its recipient did not log in in time.
            finishing.add(Finishing.Outcome.dropped(user, claimed, claimed, "not sent: " + claimed.getRecipient()
                    + " did not log in by its deadline", releasedBy, requestId));
            return;
        }
        route(user, claimed, releasedBy, requestId, false);
    }

    /** Sends "when online" message {@code claimed} of {@code user}: its recipient logged in. */
    void fireOnline(String user, Scheduled claimed) {
        route(user, claimed, null, 0, true);
    }

    private void route(String user, Scheduled claimed, Session releasedBy, long requestId, boolean recipientOnline) {
        boolean byServer = releasedBy == null;
        long now = clock.millis();
        Occurrences.Due due = Occurrences.latestDue(claimed, now);
        Scheduled message = due.occurrence();
        long late = recipientOnline ? 0 : now - message.getDueAtMillis();
        long limit = message.getTiming().getDropLateAfterMillis();
        if (limit > 0 && late > limit) {
            finishing.add(Finishing.Outcome.dropped(user, claimed, message, "not sent: it would have gone "
                    + DelayFormat.rounded(Duration.ofMillis(late)) + " late, past its limit of "
                    + DelayFormat.rounded(Duration.ofMillis(limit)), releasedBy, requestId));
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
                (t, sessions, stored, failure) -> finishing.add(Finishing.Outcome.sent(user, claimed, message, failure,
                        note, releasedBy, requestId)));
        thread.execute(() -> router.route(chat, tracker, null, gate));
    }

    /** Stops the thread once what it holds is routed. */
    @Override
    public void close() {
        thread.shutdown();
    }
}
