package dev.cim.client.command;

import dev.cim.client.core.Recipient;
import dev.cim.client.core.When;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Objects;

/** What one line typed at the console asks for; made by {@link CommandParser}. */
public sealed interface Command {

    /** A command about the user's scheduled messages, their record or their time zone. */
    sealed interface Scheduling extends Command {
    }

    /** A blank line: nothing to do. */
    record Nothing() implements Command {
    }

    /** {@code text}, {@code @bob text} or {@code ::text}: send now. */
    record Send(Recipient to, String text) implements Command {
    }

    /** {@code :delay [@bob] text N}: send {@code text} after {@code delay}. */
    record Delay(Recipient to, String text, Duration delay) implements Scheduling {
    }

    /** {@code :at <time> [@bob] text}: send {@code text} at {@code when}. */
    record At(Recipient to, String text, ZonedDateTime when) implements Scheduling {
    }

    /**
     * A scheduled message whose time is more than a delay or a time: {@code :delay @bob hi online},
     * {@code :every 2s times 3 @bob tick}, {@code :at 9:00 their @bob hi}, or one of those with a
     * late policy ({@code late drop 5m}). {@code when} is ready for {@code CimClient.schedule}.
     */
    record Schedule(Recipient to, String text, When when) implements Scheduling {
        public Schedule {
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(when, "when");
        }
    }

    /** {@code :delays}: list the scheduled messages. */
    record ListDelays() implements Scheduling {
    }

    /** {@code :cancel n}: cancel scheduled message number {@code n}. */
    record Cancel(long number) implements Scheduling {
    }

    /** {@code :edit n text}: replace the text of scheduled message {@code n}. */
    record Edit(long number, String text) implements Scheduling {
    }

    /**
     * {@code :move n <delay or time>}: send scheduled message {@code n} after {@code delay} from now, or
     * at {@code when} (exactly one of them is set).
     */
    record Move(long number, Duration delay, ZonedDateTime when) implements Scheduling {
        public Move {
            if ((delay == null) == (when == null)) {
                throw new IllegalArgumentException("a move needs a delay or a time (expected: exactly one)");
            }
        }
    }

    /** {@code :skip n}: skip the next occurrence of recurring message {@code n}. */
    record Skip(long number) implements Scheduling {
    }

    /** {@code :sent [n]}: the newest {@code count} entries of the record of scheduled messages whose time came. */
    record ListSent(int count) implements Scheduling {
    }

    /** {@code :tz}: show the user's time zone. */
    record ShowZone() implements Scheduling {
    }

    /** {@code :tz Europe/Berlin}: set the account's time zone. */
    record SetZone(ZoneId zone) implements Scheduling {
        public SetZone {
            Objects.requireNonNull(zone, "zone");
        }
    }

    /** {@code :create [open] #group [user...]}: make a group, owned by this user. */
    record CreateGroup(String group, boolean open, List<String> members) implements Command {
    }

    /** {@code :invite #group user...}: add users to a group. */
    record Invite(String group, List<String> users) implements Command {
    }

    /** {@code :join #group}: join an open group. */
    record Join(String group) implements Command {
    }

    /** {@code :leave #group}: leave a group. */
    record Leave(String group) implements Command {
    }

    /** {@code :kick #group user...}: remove users from a group this user owns. */
    record Kick(String group, List<String> users) implements Command {
    }

    /** {@code :groups}: list this user's groups. */
    record ListGroups() implements Command {
    }

    /** {@code :members #group}: list a group's members. */
    record Members(String group) implements Command {
    }

    /** {@code :history @user [n]} or {@code :history #group [n]}: the last n messages (a repeat pages back). */
    record History(String conversation, int count) implements Command {
    }

    /** {@code :search words [@user|#group]}: this user's messages holding the words, newest first. */
    record Search(String text, String conversation) implements Command {
    }

    /** {@code :olu}: list the users online. */
    record OnlineUsers() implements Command {
    }

    /** {@code :help}: list the commands. */
    record Help() implements Command {
    }

    /**
     * {@code :q} waits (up to the quit grace) for the server to confirm what was sent, then quits;
     * {@code :q!} quits at once. Scheduled messages stay on the server either way.
     */
    record Quit(boolean now) implements Command {
    }
}
