package dev.cim.client;

import dev.cim.client.command.Command;
import dev.cim.client.command.CommandException;
import dev.cim.client.command.CommandParser;
import dev.cim.client.command.DelayFormat;
import dev.cim.client.console.ChatView;
import dev.cim.client.console.Console;
import dev.cim.client.delay.DelayedMessages;
import dev.cim.client.delay.OutgoingChat;
import dev.cim.client.net.ServerConnection;
import dev.cim.common.wheel.PendingJob;
import dev.cim.common.wheel.ScheduledJob;
import dev.cim.common.wheel.StopReport;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * The conversation at the console: logs in, then reads lines until {@code :q}, {@code :q!} or the end
 * of input, and carries out each command. A bad line gets a one-line error and the loop goes on.
 */
public final class ChatSession {

    /** The commands, for tab completion. */
    public static final List<String> COMMANDS = List.of(":delay", ":delays", ":cancel", ":olu", ":help", ":q", ":q!");

    static final String HELP = String.join(System.lineSeparator(),
            "commands:",
            "  <text>                      send to everyone online",
            "  @user <text>                send to one user (all of their terminals)",
            "  :delay [@user] <text> <N>   send after a delay N: 5 or 1.5 (seconds), 500ms, 2m, 1h30m",
            "  :delays                     list the delayed messages waiting to be sent",
            "  :cancel <id>                cancel a delayed message",
            "  :olu                        list the users online",
            "  :help                       this list",
            "  :q                          quit once the delayed messages waiting are sent",
            "  :q!                         quit at once, discarding the delayed messages waiting");

    private final Console console;
    private final ChatView view;
    private final CommandParser parser;
    private final ServerConnection connection;
    private final DelayedMessages delayed;
    private final Duration quitGrace;
    private final Clock clock;
    private final DateTimeFormatter time;

    public ChatSession(Console console, ChatView view, CommandParser parser, ServerConnection connection,
            DelayedMessages delayed, Duration quitGrace, Clock clock) {
        this.console = console;
        this.view = view;
        this.parser = parser;
        this.connection = connection;
        this.delayed = delayed;
        this.quitGrace = quitGrace;
        this.clock = clock;
        this.time = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(clock.getZone());
    }

    /**
     * Runs the session until the user quits; returns the process exit code. Input is read from the
     * start, so {@code :q} works and messages typed are held while the server is still out of reach.
     *
     * @param loginRefused called, on another thread, if the server refuses the login: the process
     *        should end, as a wrong password will not be right on the next attempt either
     */
    public int run(Runnable loginRefused) throws InterruptedException {
        connection.connect().thenAccept(outcome -> {
            if (!outcome.accepted()) {
                loginRefused.run();
            }
        });
        while (true) {
            String line;
            try {
                line = console.readLine();
            } catch (IOException e) {
                line = null;
            }
            if (line == null) {
                return quit(false); // end of input: quit as :q does
            }
            Command command;
            try {
                command = parser.parse(line);
            } catch (CommandException bad) {
                view.error(bad.getMessage());
                continue;
            }
            if (command instanceof Command.Quit quit) {
                return quit(quit.discardPending());
            }
            execute(command);
        }
    }

    private void execute(Command command) {
        if (command instanceof Command.Send send) {
            connection.send(OutgoingChat.now(send.to(), send.text()));
        } else if (command instanceof Command.Delay delay) {
            schedule(delay);
        } else if (command instanceof Command.ListDelays) {
            listDelays();
        } else if (command instanceof Command.Cancel cancel) {
            view.info(delayed.cancel(cancel.id()));
        } else if (command instanceof Command.OnlineUsers) {
            connection.requestOnlineUsers();
        } else if (command instanceof Command.Help) {
            view.info(HELP);
        }
    }

    private void schedule(Command.Delay delay) {
        try {
            ScheduledJob job = delayed.schedule(delay.to(), delay.text(), delay.delay());
            view.info("delayed message #" + job.id() + " to " + delay.to() + " will be sent at " + time.format(job.dueAt())
                    + " (in " + DelayFormat.format(delay.delay()) + ")");
        } catch (IllegalArgumentException | RejectedExecutionException refused) {
            view.error("cannot delay the message: " + refused.getMessage());
        }
    }

    private void listDelays() {
        List<PendingJob> waiting = delayed.pending();
        if (waiting.isEmpty()) {
            view.info("no delayed messages waiting");
            return;
        }
        Instant now = clock.instant();
        view.info(count(waiting.size(), "delayed message") + " waiting:");
        for (PendingJob job : waiting) {
            Duration left = Duration.between(now, job.dueAt());
            view.info("  #" + job.id() + "  due " + time.format(job.dueAt())
                    + " (in " + DelayFormat.format(left.isNegative() ? Duration.ZERO : left) + ")  " + job.description());
        }
    }

    private int quit(boolean discard) throws InterruptedException {
        if (discard) {
            int dropped = delayed.discardAll().discarded().size();
            if (dropped > 0) {
                view.info("discarded " + count(dropped, "delayed message"));
            }
        } else if (delayed.count() > 0) {
            Instant last = delayed.last().map(ScheduledJob::dueAt).orElse(clock.instant());
            view.info("waiting for " + count(delayed.count(), "delayed message") + " to be sent, the last at "
                    + time.format(last) + " (press Ctrl-C to give up):");
            listDelays();
            Duration untilLast = Duration.between(clock.instant(), last);
            StopReport report = delayed.sendAllThenStop((untilLast.isNegative() ? Duration.ZERO : untilLast).plus(quitGrace));
            report.discarded().forEach(job -> view.error("not sent: #" + job.id() + " " + job.description()));
        }
        int unanswered = connection.awaitAnswered(discard ? Duration.ZERO : quitGrace);
        if (unanswered > 0) {
            view.error(count(unanswered, "message") + (unanswered == 1 ? " was" : " were") + " not confirmed by the server");
        }
        view.info("bye");
        return discard || unanswered == 0 ? 0 : 3;
    }

    /** "1 message", "2 messages". */
    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
