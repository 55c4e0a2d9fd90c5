package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.proto.Edit;
import dev.cim.common.protocol.proto.Schedule;
import dev.cim.common.protocol.proto.Timing;
import dev.cim.common.schedule.LocalTimes;
import dev.cim.common.schedule.Recurrence;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * What a schedule or edit request must be, checked before anything is stored: a recipient and a
 * text as for any message, a due time no further ahead than the longest delay (one in the past is
 * due now; an edit may not move a message into the past), and a timing whose parts go together and
 * parse (a rule, zones; a wall-clock time is read once the zones are known, by {@link Timings}).
 */
final class ScheduleChecks {

    private final Clock clock;
    private final Duration maxDelay;
    private final int maxTextLength;

    ScheduleChecks(Clock clock, Duration maxDelay, int maxTextLength) {
        this.clock = clock;
        this.maxDelay = maxDelay;
        this.maxTextLength = maxTextLength;
    }

    /** Why {@code schedule} cannot be scheduled, in words for its sender; empty when it can. */
    Optional<String> problem(Schedule schedule) {
        return ChatRules.recipientProblem(schedule.getRecipient())
                .or(() -> ChatRules.textProblem(schedule.getText(), maxTextLength))
                .or(() -> timingProblem(schedule))
                .or(() -> tooFar(schedule.getDueAtMillis()));
    }

    /**
     * Why the {@link Timing} of {@code schedule} cannot be, as far as it can be told without the
     * zones of the users (those are read when it is registered, see {@link Timings}).
     */
    private static Optional<String> timingProblem(Schedule schedule) {
        if (!schedule.hasTiming()) {
            return Optional.empty();
        }
        Timing timing = schedule.getTiming();
        String to = schedule.getRecipient();
        boolean oneUser = !ChatRules.isGroup(to) && !ChatRules.EVERYONE.equals(to);
        boolean recurring = !timing.getEvery().isEmpty();
        boolean at = !timing.getAt().isEmpty();
        if (timing.getWhenOnline() && (recurring || at)) {
            return Optional.of("'online' is a time of its own (expected: online, a recurring rule or a time of day, "
                    + "one of them)");
        }
        if (recurring && at) {
            return Optional.of("a recurring message's times come from its rule (expected: a rule or a time of day, "
                    + "not both)");
        }
        if (timing.getWhenOnline() && !oneUser) {
            return Optional.of("'online' waits for one user to log in (expected: @user)");
        }
        if ("their".equalsIgnoreCase(timing.getAtZone()) && !oneUser) {
            return Optional.of("'their' time is one user's (expected: @user)");
        }
        if (!recurring && (timing.getTimes() != 0 || timing.getUntilMillis() != 0)) {
            return Optional.of("times and until end a recurring message (expected: with a rule)");
        }
        if (timing.getDropLateAfterMillis() < 0 || timing.getUntilMillis() < 0) {
            return Optional.of("late policy " + timing.getDropLateAfterMillis() + " ms, until "
                    + timing.getUntilMillis() + " (expected: each 0 or more)");
        }
        try {
            if (recurring) {
                Recurrence.parse(timing.getEvery());
            }
            if (!timing.getZone().isEmpty()) {
                LocalTimes.zone(timing.getZone());
            }
            if (!timing.getAtZone().isEmpty() && !"their".equalsIgnoreCase(timing.getAtZone())) {
                LocalTimes.zone(timing.getAtZone());
            }
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
        return Optional.empty();
    }

    /** Why {@code edit} cannot be made; empty when it can. */
    Optional<String> problem(Edit edit) {
        Optional<String> problem = edit.getText().isEmpty() ? Optional.empty()
                : ChatRules.textProblem(edit.getText(), maxTextLength);
        if (problem.isEmpty() && edit.getDueAtMillis() != 0) {
            problem = tooFar(edit.getDueAtMillis()).or(() -> edit.getDueAtMillis() < clock.millis()
                    ? Optional.of("that time has passed") : Optional.empty());
        }
        return problem;
    }

    private Optional<String> tooFar(long dueAtMillis) {
        long latest = clock.millis() + maxDelay.toMillis();
        if (dueAtMillis > latest) {
            return Optional.of("the due time is more than " + maxDelay.toDays()
                    + " days ahead, the most the server accepts (cim.server.delays.max-delay)");
        }
        return Optional.empty();
    }
}
