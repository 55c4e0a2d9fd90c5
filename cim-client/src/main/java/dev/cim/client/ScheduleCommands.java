package dev.cim.client;

import dev.cim.client.command.Command;
import dev.cim.client.console.ChatView;
import dev.cim.client.console.Inert;
import dev.cim.client.console.ScheduleView;
import dev.cim.client.console.UserZone;
import dev.cim.client.core.CimClient;
import dev.cim.client.core.ScheduledMessage;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Carries out the commands about the user's scheduled messages, their record and their time zone
 * ({@link Command.Scheduling}) through the client library, and prints what the server answers. A
 * message is named by its number in {@code :delays}: the command looks the number up in the
 * server's list first.
 */
final class ScheduleCommands {

    private final ChatView view;
    private final ScheduleView schedules;
    private final CimClient client;
    private final UserZone zone;
    private final Predicate<Throwable> countedByClose;

    /**
     * @param countedByClose true for a failure the client's close caused, which the session counts
     *        and reports in one line at its end instead of here
     */
    ScheduleCommands(ChatView view, ScheduleView schedules, CimClient client, UserZone zone,
            Predicate<Throwable> countedByClose) {
        this.view = view;
        this.schedules = schedules;
        this.client = client;
        this.zone = zone;
        this.countedByClose = countedByClose;
    }

    /** Carries out {@code command}; returns false when it needed nothing of the server. */
    boolean execute(Command.Scheduling command) {
        if (command instanceof Command.Delay delay) {
            scheduled(client.schedule(delay.to(), delay.text(), delay.delay()));
        } else if (command instanceof Command.At at) {
            scheduled(client.schedule(at.to(), at.text(), at.when().toInstant()));
        } else if (command instanceof Command.Schedule schedule) {
            scheduled(client.schedule(schedule.to(), schedule.text(), schedule.when()));
        } else if (command instanceof Command.ListDelays) {
            listScheduled();
        } else if (command instanceof Command.Cancel cancel) {
            byNumber(cancel.number(), message -> client.cancel(message.id()).whenComplete((cancelled, failure) ->
                    report(failure, "cancel #" + cancel.number(), "cancelled scheduled message #" + cancel.number())));
        } else if (command instanceof Command.Edit edit) {
            byNumber(edit.number(), message -> client.edit(message.id(), edit.text()).whenComplete((edited, failure) ->
                    report(failure, "edit #" + edit.number(), "scheduled message #" + edit.number() + " now says: "
                            + (edited == null ? "" : Inert.text(edited.text())))));
        } else if (command instanceof Command.Move move) {
            byNumber(move.number(), message -> {
                CompletableFuture<ScheduledMessage> moving = move.delay() != null
                        ? client.move(message.id(), move.delay()) : client.move(message.id(), move.when().toInstant());
                moving.whenComplete((moved, failure) -> report(failure, "move #" + move.number(), "scheduled message #"
                        + move.number() + " will be sent at " + (moved == null ? "" : view.when(moved.dueAt()))));
            });
        } else if (command instanceof Command.Skip skip) {
            byNumber(skip.number(), message -> skip(skip.number(), message));
        } else if (command instanceof Command.ListSent sent) {
            listSent(sent.count());
        } else if (command instanceof Command.SetZone set) {
            client.setZone(set.zone()).whenComplete((stored, failure) -> report(failure, "time zone not set",
                    "your time zone is now " + (stored == null ? "" : Inert.line(stored.getId()))
                            + ", on every terminal: :at and :every read times there, and times are shown there"));
        } else if (command instanceof Command.ShowZone) {
            view.info("your time zone: " + zone.account().map(set -> Inert.line(set.getId()) + " (kept on your account)")
                    .orElse("not set; using " + zone.fallback().getId() + " (this client's; :tz <zone> sets one)"));
            return false;
        }
        return true;
    }

    private void skip(long number, ScheduledMessage message) {
        if (!message.isRecurring()) {
            view.error("#" + number + " is not recurring (expected: the number of a message scheduled with :every; "
                    + ":cancel " + number + " cancels it)");
            return;
        }
        client.skip(message.id()).whenComplete((after, failure) -> {
            if (failure != null) {
                view.error("skip #" + number + ": " + ChatSession.cause(failure).getMessage());
            } else {
                schedules.skipped(message, after);
            }
        });
    }

    private void listScheduled() {
        client.scheduled().whenComplete((messages, failure) -> {
            if (failure != null) {
                view.error("cannot list the scheduled messages: " + ChatSession.cause(failure).getMessage());
            } else if (messages.isEmpty()) {
                view.info("no scheduled messages");
            } else {
                view.info(ChatSession.count(messages.size(), "scheduled message") + ":");
                messages.forEach(schedules::listed);
            }
        });
    }

    private void listSent(int count) {
        client.sent(count).whenComplete((entries, failure) -> {
            if (failure != null) {
                view.error("cannot read the record of sent messages: " + ChatSession.cause(failure).getMessage());
            } else if (entries.isEmpty()) {
                view.info("nothing in the record: none of your scheduled messages came due lately");
            } else {
                view.info("the last " + ChatSession.count(entries.size(), "scheduled message")
                        + " whose time came, newest first:");
                entries.forEach(schedules::record);
            }
        });
    }

    private void scheduled(CompletableFuture<ScheduledMessage> registration) {
        registration.whenComplete((message, failure) -> {
            if (failure == null) {
                schedules.scheduled(message);
            } else if (!countedByClose.test(failure)) {
                view.error(ChatSession.notDone("not scheduled", failure));
            }
        });
    }

    /** Finds scheduled message {@code number} in the server's list, then does {@code action} with it. */
    private void byNumber(long number, Consumer<ScheduledMessage> action) {
        client.scheduled().whenComplete((messages, failure) -> {
            if (failure != null) {
                view.error("cannot reach the scheduled messages: " + ChatSession.cause(failure).getMessage());
                return;
            }
            Optional<ScheduledMessage> found = messages.stream().filter(m -> m.number() == number).findFirst();
            if (found.isEmpty()) {
                view.error("no scheduled message #" + number + " (sent or cancelled already? :delays lists them)");
                return;
            }
            action.accept(found.get());
        });
    }

    /** Says {@code success}, or "{@code what}: why not". */
    private void report(Throwable failure, String what, String success) {
        if (failure != null) {
            view.error(what + ": " + ChatSession.cause(failure).getMessage());
        } else {
            view.info(success);
        }
    }
}
