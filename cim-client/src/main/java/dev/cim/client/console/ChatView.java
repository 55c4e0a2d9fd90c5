package dev.cim.client.console;

import dev.cim.client.command.DelayFormat;
import dev.cim.common.protocol.ChatMessage;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * How things the server sends look on the console, one line each:
 * <pre>
 *   [14:05:10] bob: hello all
 *   [14:05:12] bob to you: see you at five
 *   [14:05:15] bob (delayed 5s): dinner is ready
 *   online (3): alice, bob, carol
 * </pre>
 */
public final class ChatView {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final Console console;
    private final ZoneId zone;

    public ChatView(Console console, ZoneId zone) {
        this.console = console;
        this.zone = zone;
    }

    public void chat(ChatMessage message) {
        StringBuilder line = new StringBuilder().append('[').append(TIME.format(message.sentAt().atZone(zone))).append("] ")
                .append(message.sender());
        if (!message.isBroadcast()) {
            line.append(" to you");
        }
        if (message.isDelayed()) {
            line.append(" (delayed ").append(DelayFormat.format(message.delay().requested())).append(')');
        }
        console.print(line.append(": ").append(message.text()).toString());
    }

    public void onlineUsers(List<String> users) {
        console.print("online (" + users.size() + "): " + String.join(", ", users));
    }

    /** A line from the client itself: a notice, a receipt, a status change. */
    public void info(String text) {
        console.print(text);
    }

    /** A one-line error, marked as such. */
    public void error(String text) {
        console.print("error: " + text);
    }
}
