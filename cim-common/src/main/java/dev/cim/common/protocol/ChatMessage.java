package dev.cim.common.protocol;

import dev.cim.common.protocol.proto.Chat;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A chat message as Java code handles it; {@link #fromProto(Chat)} and {@link #toProto()} convert
 * from and to the wire form.
 *
 * <p>A message a client sends has an empty {@code id} and {@code sender} and a {@code sentAt} of
 * {@link Instant#EPOCH}: the server fills them in. A message a client receives has all three.
 *
 * @param id        the id the server assigned, or empty before that
 * @param sender    the sending user, or empty before the server stamped it
 * @param recipient a user name, or {@link #EVERYONE}
 * @param text      what was written
 * @param sentAt    when the server accepted it, or {@link Instant#EPOCH} before that
 * @param delay     for a delayed message, the delay asked for; {@code null} otherwise
 */
public record ChatMessage(String id, String sender, String recipient, String text, Instant sentAt,
        Delay delay) {

    /** The recipient of a message to every online user. */
    public static final String EVERYONE = "everyone";
    /** The longest text allowed, in chars. */
    public static final int MAX_TEXT_LENGTH = 4000;

    /**
     * The delay of a delayed message.
     *
     * @param requested the delay the sender asked for, positive
     * @param dueAt     when the message was due
     */
    public record Delay(Duration requested, Instant dueAt) {
        public Delay {
            Objects.requireNonNull(requested, "requested");
            Objects.requireNonNull(dueAt, "dueAt");
            if (requested.isNegative() || requested.isZero()) {
                throw new IllegalArgumentException("requested: " + requested + " (expected: > 0)");
            }
        }
    }

    public ChatMessage {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(recipient, "recipient");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(sentAt, "sentAt");
    }

    /** A message as a client sends it: to {@code recipient} (a user or {@link #EVERYONE}), unstamped. */
    public static ChatMessage outgoing(String recipient, String text) {
        return new ChatMessage("", "", recipient, text, Instant.EPOCH, null);
    }

    /** A delayed message as a client sends it when it falls due. */
    public static ChatMessage outgoingDelayed(String recipient, String text, Delay delay) {
        return new ChatMessage("", "", recipient, text, Instant.EPOCH, Objects.requireNonNull(delay, "delay"));
    }

    /** True when this message is for every online user. */
    public boolean isBroadcast() {
        return EVERYONE.equals(recipient);
    }

    /** True when the sender asked for this message to be delayed. */
    public boolean isDelayed() {
        return delay != null;
    }

    /** This message as the server stamps it: with its id, sender and acceptance time. */
    public ChatMessage stamped(String newId, String newSender, Instant newSentAt) {
        return new ChatMessage(newId, newSender, recipient, text, newSentAt, delay);
    }

    /**
     * Reads the wire form.
     *
     * @throws IllegalArgumentException if a delay is present but its requested duration is not
     *         positive
     */
    public static ChatMessage fromProto(Chat chat) {
        Delay delay = null;
        if (chat.hasDelay()) {
            Chat.Delay d = chat.getDelay();
            delay = new Delay(Duration.ofMillis(d.getRequestedMillis()), Instant.ofEpochMilli(d.getDueAtMillis()));
        }
        return new ChatMessage(chat.getId(), chat.getSender(), chat.getRecipient(), chat.getText(),
                Instant.ofEpochMilli(chat.getSentAtMillis()), delay);
    }

    /** The wire form. */
    public Chat toProto() {
        Chat.Builder chat = Chat.newBuilder()
                .setId(id)
                .setSender(sender)
                .setRecipient(recipient)
                .setText(text)
                .setSentAtMillis(sentAt.toEpochMilli());
        if (delay != null) {
            chat.setDelay(Chat.Delay.newBuilder()
                    .setRequestedMillis(delay.requested().toMillis())
                    .setDueAtMillis(delay.dueAt().toEpochMilli()));
        }
        return chat.build();
    }
}
