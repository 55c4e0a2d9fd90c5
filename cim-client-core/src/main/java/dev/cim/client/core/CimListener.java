package dev.cim.client.core;

import java.time.ZoneId;

/**
 * Hears what a {@link CimClient} receives. Every method has an empty default, so a listener
 * implements only what it needs.
 *
 * <p>Called on the client's I/O thread, one call at a time, in the order things arrived: keep it
 * short (printing a line is fine; blocking is not: it holds up the connection). A received message
 * is acknowledged to the server once {@link #onMessage} has returned, so a message the listener
 * has seen is not delivered again; an exception thrown by a listener is logged and the message
 * counts as seen.
 */
public interface CimListener {

    /** A message for this user; each message id of a sender at most once. */
    default void onMessage(ChatMessage message) {
    }

    /** The connection changed. */
    default void onConnection(ConnectionEvent event) {
    }

    /**
     * One of the user's scheduled messages changed through another terminal, was sent, or could not
     * be sent at its time ({@link ScheduledChange.Kind#FAILED}, with the reason). Changes this client
     * asked for are the results of its own calls instead.
     */
    default void onScheduledChange(ScheduledChange change) {
    }

    /**
     * A group this user is in changed (or they joined, left or were removed from it), by another
     * user or on another terminal of this user's.
     */
    default void onGroupChange(GroupChange change) {
    }

    /** The user's time zone was set on another terminal ({@link CimClient#setZone} on this one). */
    default void onZoneChanged(ZoneId zone) {
    }
}
