package dev.cim.client.console;

import dev.cim.common.schedule.DelayFormat;
import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.GroupChange;
import dev.cim.client.core.GroupInfo;
import dev.cim.client.core.HistoryPage;
import dev.cim.client.core.SearchResult;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How things look on the console, one message per block:
 * <pre>
 *   [14:05:10] bob: hello all
 *   [14:05:12] bob to you: see you at five
 *   [14:05:13] you to bob: on my way               (sent from another terminal of yours)
 *   [14:05:15] bob (delayed 5s): dinner is ready
 *   [14:05:16] bob to you (when online): welcome back  (scheduled to wait for your login)
 *   [14:05:17] bob to you (#4 of a series): standup    (the 4th of a recurring message)
 *   [14:05:18] carol in #team: standup in 5
 *   online (3): alice, bob, carol
 * </pre>
 * Everything received is printed through {@link Inert}: control characters are shown, not obeyed,
 * and the lines of a multi-line message are indented under it. Times are in the user's zone
 * ({@link UserZone}).
 */
public final class ChatView {

    private final Console console;
    private final Times times;
    private final String me;

    /**
     * A view whose user's zone is {@code clock}'s.
     *
     * @param clock now, in the user's time zone
     * @param me    the user of this console
     */
    public ChatView(Console console, Clock clock, String me) {
        this(console, new Times(clock, new UserZone(clock.getZone())), me);
    }

    /**
     * @param times how times read, in the user's zone
     * @param me    the user of this console
     */
    public ChatView(Console console, Times times, String me) {
        this.console = console;
        this.times = times;
        this.me = me;
    }

    public void chat(ChatMessage message) {
        boolean mine = message.sender().equals(me);
        StringBuilder line = new StringBuilder().append('[').append(Times.TIME.format(message.sentAt().atZone(times.zone())))
                .append("] ").append(mine ? "you" : Inert.line(message.sender()));
        if (message.isToGroup()) {
            line.append(" in ").append(Inert.line(message.recipient()));
        } else if (!message.isBroadcast()) {
            line.append(" to ").append(message.recipient().equals(me) ? "you" : Inert.line(message.recipient()));
        }
        console.print(line.append(delayMark(message)).append(": ").append(Inert.text(message.text())).toString());
    }

    /**
     * How a scheduled message is marked: " (when online)" when it waited for the recipient's login,
     * " (#4 of a series)" for an occurrence of a recurring one, " (delayed 5s)" for the others; "" for
     * a message that was not scheduled.
     */
    private static String delayMark(ChatMessage message) {
        if (!message.isDelayed()) {
            return "";
        }
        ChatMessage.Delay delay = message.delay();
        if (delay.whenOnline()) {
            return " (when online)";
        }
        if (delay.occurrence() > 0) {
            return " (#" + delay.occurrence() + " of a series)";
        }
        return " (delayed " + DelayFormat.rounded(delay.requested()) + ")";
    }

    /** The user's groups, as {@code :groups} lists them. */
    public void groups(List<GroupInfo> groups) {
        if (groups.isEmpty()) {
            console.print("you are in no group (:create #name makes one)");
            return;
        }
        console.print("your groups (" + groups.size() + "):");
        for (GroupInfo group : groups) {
            console.print("  #" + Inert.line(group.name()) + "  " + group.members() + " member"
                    + (group.members() == 1 ? "" : "s") + (group.open() ? ", open" : "") + ", owner "
                    + (group.owner().equals(me) ? "you" : Inert.line(group.owner())));
        }
    }

    /** A change to a group of the user's, made elsewhere. */
    public void groupChange(GroupChange change) {
        String group = "#" + Inert.line(change.group().name());
        String by = change.by().equals(me) ? "you" : Inert.line(change.by());
        String users = names(change.users());
        console.print(switch (change.kind()) {
            case CREATED -> by + " made " + group + " with " + users;
            case JOINED -> change.users().equals(List.of(change.by())) ? users + " joined " + group
                    : users + (change.users().size() == 1 ? " was" : " were") + " added to " + group + " by " + by;
            case LEFT -> users + " left " + group;
            case REMOVED -> users + (change.users().size() == 1 ? " was" : " were") + " removed from " + group + " by "
                    + by;
        });
    }

    private String names(List<String> users) {
        List<String> shown = new ArrayList<>(users.size());
        users.forEach(user -> shown.add(user.equals(me) ? "you" : Inert.line(user)));
        return String.join(", ", shown);
    }

    /** A page of a conversation's history, as {@code :history} shows it. */
    public void history(HistoryPage page, boolean older) {
        if (page.entries().isEmpty()) {
            console.print("no " + (older ? "older " : "") + "messages in " + Inert.line(page.conversation()));
            return;
        }
        console.print(Inert.line(page.conversation()) + ", " + page.entries().size() + (older ? " older" : " last")
                + " message" + (page.entries().size() == 1 ? "" : "s") + ":");
        page.entries().forEach(entry -> console.print("  " + past(entry.message())));
        if (page.more()) {
            console.print("(repeat the command for older ones)");
        }
    }

    /** A page of search hits, newest first. */
    public void searchResult(String text, SearchResult result) {
        if (result.hits().isEmpty()) {
            console.print("no messages with '" + Inert.line(text) + "'");
        }
        for (SearchResult.Hit hit : result.hits()) {
            console.print("  " + Inert.line(hit.conversation()) + "  " + past(hit.entry().message()));
        }
        console.print("searched back to " + times.date(result.searchedBackTo())
                + (result.resume().isEmpty() ? "" : "; repeat the command for more"));
    }

    /** A message of the past: with its date, who sent it, and whether it was delayed. */
    private String past(ChatMessage message) {
        return "[" + times.date(message.sentAt()) + "] " + (message.sender().equals(me) ? "you"
                : Inert.line(message.sender())) + delayMark(message) + ": " + Inert.text(message.text());
    }

    public void onlineUsers(List<String> users) {
        console.print("online (" + users.size() + "): " + Inert.line(String.join(", ", users)));
    }

    /** A time for people: the clock time when it is today, with the date otherwise. */
    public String when(Instant instant) {
        return times.when(instant);
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
