package dev.cim.client.core;

/**
 * What the server did with a message: it reached every session of its recipient, or it waits,
 * stored durably, in the recipient's inbox.
 *
 * @param messageId the message's id
 * @param outcome   delivered or stored
 * @param sessions  how many sessions acknowledged it
 * @param storedFor for {@link Outcome#STORED}, the user whose inbox holds it
 * @param resend    true when the server had handled this message before (it was sent again after a
 *                  lost connection) and routed it no second time
 */
public record SendReceipt(String messageId, Outcome outcome, int sessions, String storedFor, boolean resend) {

    public enum Outcome {
        /** Every session of the recipient (for everyone: every session online) acknowledged it. */
        DELIVERED,
        /** Some recipient was not there to acknowledge it: it waits in their inbox for the next login. */
        STORED,
        /**
         * The message was sent again after a lost connection, and the server had handled it so long
         * before that it no longer keeps the outcome: it was not routed a second time.
         */
        HANDLED_EARLIER,
        /**
         * A message to a group: kept in the group's log, from which every member gets it, once, now
         * or at their next login.
         */
        POSTED
    }
}
