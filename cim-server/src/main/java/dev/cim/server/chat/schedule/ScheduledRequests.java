package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.proto.Envelope;
import dev.cim.server.chat.session.Session;
import java.time.Duration;

/** Serves the requests about scheduled messages (schedule, edit, cancel, list, release). */
public interface ScheduledRequests {

    /** Answers {@code request}, a Schedule, Edit, Cancel, Release, ListScheduled, Skip or ListSent of {@code session}. */
    void handle(Session session, Envelope request);

    /** {@code user} has a session started on this node (the "when online" messages for them go now). */
    void loggedIn(String user);

    /** The longest delay accepted. */
    Duration maxDelay();
}
