package dev.cim.server.chat.session;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.Envelope;

/**
 * A chat on its way to a session: the envelope, built once for every session it goes to, and the
 * tracker that counts it toward the sender's receipt ({@code null} for copies that count for
 * nothing, such as the sender's own other terminals, or messages replayed from the inbox). A message
 * to a group carries its position in the group's log instead: it counts toward the member's cursor.
 *
 * @param envelope the Delivery envelope written to the session
 * @param tracker  told when the session acknowledged it or it was stored, or null
 * @param bytes    the envelope's serialized size, measured once when it is built (while the message
 *                 is in the cache) for the sessions' window accounting
 * @param position for a message to a group, its position in the group's log; else null
 */
public record Delivery(Envelope envelope, Tracker tracker, int bytes, String position) {

    public static Delivery of(Chat chat, Tracker tracker) {
        return of(Envelopes.delivery(chat), tracker);
    }

    public static Delivery of(Envelope envelope, Tracker tracker) {
        return new Delivery(envelope, tracker, envelope.getSerializedSize(), null);
    }

    /** A message posted to a group, at {@code position} in its log. */
    public static Delivery posted(Chat chat, String position) {
        Envelope envelope = Envelopes.delivery(chat);
        return new Delivery(envelope, null, envelope.getSerializedSize(), position);
    }

    /** The same envelope, counting for nothing. */
    public Delivery copy() {
        return tracker == null ? this : new Delivery(envelope, null, bytes, position);
    }

    /** The group it was posted to (without its '#'), or null. */
    public String group() {
        return position == null ? null : chat().getRecipient().substring(1);
    }

    public Chat chat() {
        return envelope.getDelivery().getChat();
    }
}
