package dev.cim.client.console;

import dev.cim.client.command.DelayFormat;
import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.ScheduledMessage;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * How things look on the console, one message per block:
 * <pre>
 *   [14:05:10] bob: hello all
 *   [14:05:12] bob to you: see you at five
 *   [14:05:13] you to bob: on my way               (sent from another terminal of yours)
 *   [14:05:15] bob (delayed 5s): dinner is ready
 *   online (3): alice, bob, carol
 * </pre>
 * Everything received is printed through {@link Inert}: control characters are shown, not obeyed,
 * and the lines of a multi-line message are indented under it.
 */
public final class ChatView {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    private final Console console;
    private final Clock clock;
    private final String me;

    /**
     * @param clock now, in the user's time zone
     * @param me    the user of this console
     */
    public ChatView(Console console, Clock clock, String me) {
        this.console = console;
        this.clock = clock;
        this.me = me;
    }

    public void chat(ChatMessage message) {
        boolean mine = message.sender().equals(me);
        StringBuilder line = new StringBuilder().append('[').append(TIME.format(message.sentAt().atZone(clock.getZone())))
                .append("] ").append(mine ? "you" : Inert.line(message.sender()));
        if (!message.isBroadcast()) {
            line.append(" to ").append(message.recipient().equals(me) ? "you" : Inert.line(message.recipient()));
        }
        if (message.isDelayed()) {
            line.append(" (delayed ").append(DelayFormat.rounded(message.delay().requested())).append(')');
        }
        console.print(line.append(": ").append(Inert.text(message.text())).toString());
    }

    public void onlineUsers(List<String> users) {
        console.print("online (" + users.size() + "): " + Inert.line(String.join(", ", users)));
    }

    /** One scheduled message, as {@code :delays} lists it. */
    public void scheduled(ScheduledMessage message) {
        console.print("  #" + message.number() + "  " + when(message.dueAt()) + "  to " + message.recipient() + "  "
                + Inert.text(message.text()));
    }

    /** A time for people: the clock time when it is today, with the date otherwise. */
    public String when(Instant instant) {
        ZonedDateTime at = instant.atZone(clock.getZone());
        LocalDate today = LocalDate.now(clock);
        return at.toLocalDate().equals(today) ? TIME.format(at) : DATE_TIME.format(at);
    }

    /** A line from the client itself: a notice, a receipt, a status change. */
    public void info(String text) {
        console.print(text);
    }

    /** A one-line error, marked as such. */
    public void error(String text) {
        console.print("error: " + Inert.line(text));
    }
}
