package dev.cim.server.chat;

import dev.cim.common.protocol.proto.Envelope;
import java.time.Duration;

/** Serves the requests about scheduled messages (schedule, edit, cancel, list, release). */
interface ScheduledRequests {

    /** Answers {@code request}, a Schedule, Edit, Cancel, Release or ListScheduled of {@code session}. */
    void handle(Session session, Envelope request);

    /** The longest delay accepted. */
    Duration maxDelay();
}
