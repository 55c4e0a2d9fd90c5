package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.proto.Chat;
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
 * to one recipient keep their order), and its outcome goes to {@link Finishing}.
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
    void fire(String user, Scheduled message, Session releasedBy, long requestId) {
        boolean byServer = releasedBy == null;
        long now = clock.millis();
        Chat chat = Chat.newBuilder()
                .setId(message.getId())
                .setSender(user)
                .setRecipient(message.getRecipient())
                .setText(message.getText())
                .setSentAtMillis(now)
                .setDelay(Chat.Delay.newBuilder()
                        .setRequestedMillis(message.getRequestedMillis())
                        .setDueAtMillis(message.getDueAtMillis())
                        .setFiredByServer(byServer))
                .build();
        metrics.sent(message.getDueAtMillis(), now, byServer);
        Tracker tracker = new Tracker(0, message.getIdBytes(), message.getRecipient(), (t, sessions, stored, failure) ->
                finishing.add(new Finishing.Outcome(user, message, failure, releasedBy, requestId)));
        thread.execute(() -> router.route(chat, tracker, null, gate));
    }

    /** Stops the thread once what it holds is routed. */
    @Override
    public void close() {
        thread.shutdown();
    }
}
