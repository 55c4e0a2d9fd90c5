package dev.cim.client;

import dev.cim.client.command.Command;
import dev.cim.client.command.CommandException;
import dev.cim.client.command.CommandParser;
import dev.cim.client.console.ChatView;
import dev.cim.client.console.Console;
import dev.cim.client.console.Inert;
import dev.cim.client.console.ScheduleView;
import dev.cim.client.console.UserZone;
import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimException;
import dev.cim.client.core.GroupInfo;
import dev.cim.client.core.GroupResult;
import dev.cim.client.core.SendReceipt;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The conversation at the console: reads lines until {@code :q}, {@code :q!} or the end of input,
 * and carries out each command through the client library. A bad line gets a one-line error and the
 * loop goes on; the results of commands are printed when the server answers.
 */
public final class ChatSession {

    /** The commands, for tab completion. */
    public static final List<String> COMMANDS = List.of(":delay", ":at", ":every", ":delays", ":cancel", ":edit",
            ":move", ":skip", ":sent", ":tz", ":create", ":invite", ":join", ":leave", ":kick", ":groups", ":members",
            ":history", ":search", ":olu", ":help", ":q", ":q!");

    static final String HELP = String.join(System.lineSeparator(),
            "commands:",
            "  <text>                        send to everyone online",
            "  @user <text>                  send to one user (all of their terminals)",
            "  #group <text>                 send to the members of a group",
            "  ::<text>                      send a text that starts with ':' (::) sends :))",
            "  :delay [@user|#group] <text> <N>  send after N: 5 or 1.5 (seconds), 500ms, 2m, 1h30m, 1d",
            "  :delay @user <text> online [until <end>]  send when they next log in (at once if online);",
            "                                dropped if not by the end: until 2d, until 2026-12-31",
            "  :at <time> [their|<zone>] [@user|#group] <text>  send at a time: 17:30, tomorrow 9:00,",
            "                                2027-01-05 09:00; on their clock (to a user) or a zone's: Asia/Tokyo",
            "  :every <rule> [until <end>|times <N>] [@user|#group] <text>  send again and again:",
            "                                10s, 2h, 1d, weekday 9:00, mon,thu 17:30, 1st 10:00, last 18:00,",
            "                                \"0 9 * * 1-5\" (cron, in quotes); :every 2s times 3 @bob tick",
            "  late drop <duration>          dropped, not sent late, if it cannot go within that long: after",
            "                                the time (:at, :every) or at the end (:delay @bob hi 10m late drop 1m)",
            "  :delays                       list your scheduled messages (from every terminal)",
            "  :cancel <n>                   cancel scheduled message #n (a whole series)",
            "  :edit <n> <text>              replace the text of scheduled message #n",
            "  :move <n> <delay or time>     send #n at another time: :move 3 10m, :move 3 tomorrow 9:00",
            "  :skip <n>                     skip the next occurrence of recurring message #n",
            "  :sent [n]                     the last n (20) scheduled messages whose time came: sent, failed, dropped",
            "  :tz [<zone>]                  show your time zone, or set it on your account: :tz Europe/Berlin",
            "  :create [open] #group [user...]  make a group (you own it; anyone may join an open one)",
            "  :invite #group <user...>      add users to a group you are in",
            "  :join #group / :leave #group  join an open group / leave a group",
            "  :kick #group <user...>        remove users from a group you own",
            "  :groups / :members #group     list your groups / a group's members",
            "  :history @user|#group [n]     the last n messages (20); repeat it to page back",
            "  :search <words> [@user|#group]  your messages holding the words, newest first; repeat for more",
            "  :olu                          list the users online",
            "  :help                         this list",
            "  :q                            quit once the server has confirmed what you sent",
            "  :q!                           quit at once",
            "scheduled messages are kept by the server: they are sent at their time even when no client runs");

    private final Console console;
    private final ChatView view;
    private final CommandParser parser;
    private final CimClient client;
    private final Duration quitGrace;
    private final HistoryPaging pages;
    private final ScheduleCommands schedules;
    /** What the client's close failed, by whether a server may have it: counted, then said in {@link #end}. */
    private final AtomicInteger unconfirmed = new AtomicInteger();
    private final AtomicInteger unconfirmedSchedules = new AtomicInteger();
    private final AtomicInteger notSent = new AtomicInteger();
    /** {@link #end}'s exit status once it has run, else null. */
    private Integer endStatus;

    /**
     * @param schedules how scheduled messages look
     * @param zone      the user's time zone, which {@code :tz} shows
     * @param quitGrace how long {@code :q} waits for the server to confirm what was sent
     */
    public ChatSession(Console console, ChatView view, ScheduleView schedules, CommandParser parser, CimClient client,
            UserZone zone, Duration quitGrace) {
        this.console = console;
        this.view = view;
        this.parser = parser;
        this.client = client;
        this.quitGrace = quitGrace;
        this.pages = new HistoryPaging(client.history(), view);
        this.schedules = new ScheduleCommands(view, schedules, client, zone,
                failure -> countedByClose(failure, unconfirmedSchedules));
    }

    /**
     * Runs the session until the user quits; returns the process exit code. Input is read from the
     * start, so {@code :q} works and messages typed are held while the server is out of reach.
     *
     * @param stopped called, on another thread, if the client stops by itself: the server refused
     *        the login, or the connection could not be made secure. The process should end, as a
     *        wrong password or a wrong certificate will not be right on the next attempt either
     */
    public int run(Runnable stopped) throws InterruptedException {
        client.connect().whenComplete((login, failure) -> {
            if (failure != null && cause(failure) instanceof CimException e
                    && (e.reason() == CimException.Reason.LOGIN_REFUSED || e.reason() == CimException.Reason.TLS_FAILED)) {
                stopped.run();
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
                return quit(quit.now());
            }
            execute(command);
        }
    }

    private void execute(Command command) {
        if (command instanceof Command.Nothing) {
            return;
        }
        if (command instanceof Command.Send send) {
            client.send(send.to(), send.text()).whenComplete((receipt, failure) -> {
                if (failure != null) {
                    if (!countedByClose(failure, unconfirmed)) {
                        view.error(notDone("not sent", failure));
                    }
                } else if (receipt.outcome() == SendReceipt.Outcome.STORED && !send.to().isGroup()) {
                    view.info(Inert.line(receipt.storedFor()) + " is offline: the message waits in their inbox for their next login");
                }
            });
        } else if (command instanceof Command.Scheduling scheduling) {
            if (!schedules.execute(scheduling)) {
                return;
            }
        } else if (command instanceof Command.CreateGroup create) {
            groupChange(client.groups().create(create.group(), create.open(), create.members()), "create #" + create.group(),
                    g -> "made #" + g.name() + (g.open() ? " (open)" : "") + " with " + count(g.members(), "member"));
        } else if (command instanceof Command.Invite invite) {
            groupChange(client.groups().invite(invite.group(), invite.users()), "invite to #" + invite.group(),
                    g -> "#" + g.name() + " has " + count(g.members(), "member") + " now");
        } else if (command instanceof Command.Join join) {
            groupChange(client.groups().join(join.group()), "join #" + join.group(),
                    g -> "you joined #" + g.name() + " (" + count(g.members(), "member") + ")");
        } else if (command instanceof Command.Leave leave) {
            groupChange(client.groups().leave(leave.group()), "leave #" + leave.group(), g -> "you left #" + leave.group());
        } else if (command instanceof Command.Kick kick) {
            groupChange(client.groups().kick(kick.group(), kick.users()), "kick from #" + kick.group(),
                    g -> "#" + g.name() + " has " + count(g.members(), "member") + " now");
        } else if (command instanceof Command.ListGroups) {
            client.groups().list().whenComplete((groups, failure) -> {
                if (failure != null) {
                    view.error("cannot list your groups: " + cause(failure).getMessage());
                } else {
                    view.groups(groups);
                }
            });
        } else if (command instanceof Command.Members members) {
            client.groups().members(members.group()).whenComplete((names, failure) -> {
                if (failure != null) {
                    view.error("members of #" + members.group() + ": " + cause(failure).getMessage());
                } else {
                    view.info("#" + members.group() + " (" + names.size() + "): " + Inert.line(String.join(", ", names)));
                }
            });
        } else if (command instanceof Command.History history) {
            pages.history(history);
        } else if (command instanceof Command.Search search) {
            pages.search(search);
        } else if (command instanceof Command.OnlineUsers) {
            client.onlineUsers().whenComplete((users, failure) -> {
                if (failure != null) {
                    view.error("cannot list the users online: " + cause(failure).getMessage());
                } else {
                    view.onlineUsers(users);
                }
            });
        } else if (command instanceof Command.Help) {
            view.info(HELP);
            return;
        }
        if (!client.isConnected()) {
            view.info("(not connected: this is done when the connection is back)");
        }
    }

    /** Reports a change to a group: {@code success} of the group as it is now, the users refused, or why not. */
    private void groupChange(CompletableFuture<GroupResult> change, String what, Function<GroupInfo, String> success) {
        change.whenComplete((result, failure) -> {
            if (failure != null) {
                view.error(what + ": " + cause(failure).getMessage());
                return;
            }
            view.info(Inert.line(success.apply(result.group())));
            result.refused().forEach(refused -> view.error("not added: " + refused));
        });
    }

    private int quit(boolean now) throws InterruptedException {
        if (!now) {
            try {
                client.allAnswered().get(quitGrace.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // what is still unanswered is counted by the close below
            }
        }
        // Counted once what was typed before is answered: a :delay queued while connecting counts.
        int scheduled = scheduledCount();
        if (scheduled > 0) {
            view.info(count(scheduled, "scheduled message") + " stay" + (scheduled == 1 ? "s" : "")
                    + " on the server and will be sent at " + (scheduled == 1 ? "its" : "their") + " time");
        }
        int status = end();
        view.info("bye");
        return status;
    }

    /**
     * Closes the client and says, in one line for each kind, what the close left undone: at
     * {@code :q} and {@code :q!}, and when the application is closed under the session (SIGTERM, or
     * Ctrl-C with the input piped), whichever comes first; a later call only returns the status.
     *
     * @return the process exit status: 0, or 3 if a message was left unconfirmed or not sent
     */
    public synchronized int end() {
        if (endStatus != null) {
            return endStatus;
        }
        client.close(); // fails what is unanswered, on the client's thread, before it returns
        int maybe = unconfirmed.get();
        if (maybe > 0) {
            view.error(were(maybe, "message") + " sent but not confirmed by the server: "
                    + (maybe == 1 ? "it" : "they") + " may have arrived or not, and will not be sent again");
        }
        int maybeScheduled = unconfirmedSchedules.get();
        if (maybeScheduled > 0) {
            view.error(were(maybeScheduled, "scheduled message") + " sent but not confirmed by the server: the server may keep "
                    + (maybeScheduled == 1 ? "it" : "them") + " or not (:delays lists what it keeps)");
        }
        int never = notSent.get();
        if (never > 0) {
            view.error(were(never, "message") + " not sent: the client was not logged in to a server");
        }
        endStatus = maybe + maybeScheduled + never == 0 ? 0 : 3;
        return endStatus;
    }

    /**
     * Counts a message, or a schedule, that the client's close left unanswered, for {@link #end}'s
     * summary, instead of a line for each: a sender who quits while a slow recipient holds back
     * hundreds of receipts would get hundreds of lines, and "not sent" would be false for those the
     * server had.
     */
    private boolean countedByClose(Throwable failure, AtomicInteger unconfirmedOnes) {
        if (cause(failure) instanceof CimException e) {
            if (e.reason() == CimException.Reason.UNCONFIRMED) {
                unconfirmedOnes.incrementAndGet();
                return true;
            }
            if (e.reason() == CimException.Reason.CLOSED) {
                notSent.incrementAndGet();
                return true;
            }
        }
        return false;
    }

    private int scheduledCount() throws InterruptedException {
        if (!client.isConnected()) {
            return 0;
        }
        try {
            return client.scheduled().get(2, TimeUnit.SECONDS).size();
        } catch (ExecutionException | TimeoutException e) {
            return 0;
        }
    }

    /**
     * "not sent: why": some of the server's refusals say what was not done themselves ("not sent:
     * more than 100 messages per second ..."), the client's own failures do not.
     */
    static String notDone(String what, Throwable failure) {
        String why = String.valueOf(cause(failure).getMessage());
        return why.startsWith(what) ? why : what + ": " + why;
    }

    /** What went wrong, out of the wrappers of a future's failure. */
    static Throwable cause(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** "1 message", "2 messages". */
    static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /** "1 message was", "2 messages were". */
    private static String were(int n, String noun) {
        return count(n, noun) + (n == 1 ? " was" : " were");
    }
}
