package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.proto.Edit;
import dev.cim.common.protocol.proto.Schedule;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * What a schedule or edit request must be, checked before anything is stored: a recipient and a
 * text as for any message, and a due time no further ahead than the longest delay (one in the past
 * is due now; an edit may not move a message into the past).
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
                .or(() -> tooFar(schedule.getDueAtMillis()));
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
