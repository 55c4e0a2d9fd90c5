package dev.cim.client.command;

import java.time.Duration;
import java.util.Objects;

/** What one line typed at the console asks for; made by {@link CommandParser}. */
public sealed interface Command {

    /** Where a chat message goes: everyone online, or one user (all of that user's terminals). */
    record Recipient(String user) {

        /** Everyone online but the sender. */
        public static final Recipient EVERYONE = new Recipient(null);

        public static Recipient user(String name) {
            return new Recipient(Objects.requireNonNull(name, "name"));
        }

        public boolean isEveryone() {
            return user == null;
        }

        @Override
        public String toString() {
            return isEveryone() ? "everyone" : "@" + user;
        }
    }

    /** A blank line: nothing to do. */
    record Nothing() implements Command {
    }

    /** {@code text} or {@code @bob text}: send now. */
    record Send(Recipient to, String text) implements Command {
    }

    /** {@code :delay [@bob] text N}: send {@code text} after {@code delay}. */
    record Delay(Recipient to, String text, Duration delay) implements Command {
    }

    /** {@code :delays}: list the delayed messages not yet sent. */
    record ListDelays() implements Command {
    }

    /** {@code :cancel id}: cancel a delayed message. */
    record Cancel(long id) implements Command {
    }

    /** {@code :olu}: list the users online. */
    record OnlineUsers() implements Command {
    }

    /** {@code :help}: list the commands. */
    record Help() implements Command {
    }

    /**
     * {@code :q} waits for pending delayed messages to be sent, then quits; {@code :q!} discards them
     * and quits at once.
     */
    record Quit(boolean discardPending) implements Command {
    }
}
