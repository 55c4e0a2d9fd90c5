package dev.cim.server.routing;

import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.UserNames;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Checks a chat message a client sent and stamps it with what only the server decides: a unique id,
 * the sender (the logged-in user) and the time it was accepted. Ids are
 * {@code <node>-<node start, base 36>-<sequence>}: unique across nodes and across restarts of one.
 * Whatever id or time the client put in is replaced.
 */
public final class MessageStamper {

    private final Clock clock;
    private final String idPrefix;
    private final AtomicLong sequence = new AtomicLong();

    public MessageStamper(Clock clock, String nodeId) {
        this.clock = clock;
        this.idPrefix = nodeId + "-" + Long.toString(clock.millis(), 36) + "-";
    }

    /** Why {@code sent} by {@code user} is refused, or empty when it is acceptable. */
    public Optional<String> problem(ChatMessage sent, String user) {
        if (!sent.sender().isEmpty() && !sent.sender().equals(user)) {
            return Optional.of("sender must be empty or your own name " + user + ", not " + sent.sender());
        }
        if (!sent.isBroadcast()) {
            Optional<String> badRecipient = UserNames.problem(sent.recipient());
            if (badRecipient.isPresent()) {
                return Optional.of("recipient: " + badRecipient.get() + " (or '" + ChatMessage.EVERYONE
                        + "' for everyone)");
            }
        }
        if (sent.text().isBlank()) {
            return Optional.of("the text is empty");
        }
        if (sent.text().length() > ChatMessage.MAX_TEXT_LENGTH) {
            return Optional.of("the text has " + sent.text().length() + " characters (expected: at most "
                    + ChatMessage.MAX_TEXT_LENGTH + ")");
        }
        return Optional.empty();
    }

    /** {@code sent} with a new id, {@code user} as sender and now as its time. Check it first. */
    public ChatMessage stamp(ChatMessage sent, String user) {
        return sent.stamped(idPrefix + sequence.incrementAndGet(), user, clock.instant());
    }
}
