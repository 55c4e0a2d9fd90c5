package dev.cim.client.console;

import dev.cim.client.core.ScheduledChange;
import dev.cim.client.core.ScheduledMessage;
import dev.cim.client.core.SentEntry;
import dev.cim.client.core.When;
import dev.cim.common.schedule.DelayFormat;
import dev.cim.common.schedule.Recurrence;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Optional;

/**
 * How the user's scheduled messages look on the console: listed by {@code :delays}, confirmed when
 * scheduled, recorded by {@code :sent}, and the news about them.
 * <pre>
 *   #3  17:30:00  to &#64;bob  call me
 *   #4  09:00:00 CET (17:00:00 JST their time)  to &#64;bob  good morning
 *   #5  10:00:02, every 2s, next #2 of 3  to &#64;bob  tick
 *   #6  when bob logs in, until 2027-03-29 10:00  to &#64;bob  welcome back
 *   #7  10:10:00, dropped if over 1m late  to everyone  coffee?
 *
 *   #5 (occurrence 2)  to &#64;bob  tick  due 10:00:04  sent 10:00:04 (late 0.2s)
 *   #7  to everyone  coffee?  due 10:10:00  dropped: it would have gone 3m late, past its limit of 1m
 * </pre>
 * The recipient's clock is shown beside the user's when the server knows the recipient's zone and
 * it shows another time. Text from the network is rendered {@link Inert}; in the record, where more
 * follows it, a text is cut to {@value #RECORD_TEXT} characters and kept on one line.
 */
public final class ScheduleView {

    /** The most characters of a text shown in a line of {@code :sent}. */
    static final int RECORD_TEXT = 30;
    private static final Instant NO_DEADLINE = Instant.ofEpochMilli(Long.MAX_VALUE);

    private final Console console;
    private final Times times;

    public ScheduleView(Console console, Times times) {
        this.console = console;
        this.times = times;
    }

    /** One scheduled message, as {@code :delays} lists it. */
    public void listed(ScheduledMessage message) {
        console.print("  #" + message.number() + "  " + due(message) + "  to " + message.recipient() + "  "
                + Inert.text(message.text()));
    }

    /** What the server answered when {@code message} was scheduled from this terminal. */
    public void scheduled(ScheduledMessage message) {
        String which = "scheduled message #" + message.number() + " to " + message.recipient();
        if (message.isWhenOnline()) {
            console.print(which + " will be sent when " + loginOf(message) + " (at once if online now)"
                    + deadline(message).map(d -> "; dropped if not by " + times.when(d)).orElse("")
                    + "; it is kept by the server");
        } else if (message.isRecurring()) {
            console.print(which + ": " + rule(message.when()) + ends(message.when()) + late(message.when())
                    + "; the first at " + atAndHowSoon(message) + "; it is kept by the server");
        } else {
            console.print(which + " will be sent at " + atAndHowSoon(message) + late(message.when())
                    + "; it is kept by the server");
        }
    }

    /** "17:30:00 (in 3h)", or "15:00:00 CET (23:00:00 JST their time), in 1h". */
    private String atAndHowSoon(ScheduledMessage message) {
        String at = at(message);
        String in = "in " + DelayFormat.rounded(times.until(message.dueAt()));
        return at.endsWith(")") ? at + ", " + in : at + " (" + in + ")";
    }

    /** What skipping the next occurrence of {@code before} made of it: {@code after}, the series now. */
    public void skipped(ScheduledMessage before, ScheduledMessage after) {
        boolean ended = after.occurrence() <= before.occurrence();
        console.print("skipped occurrence " + before.occurrence() + " of #" + before.number()
                + (ended ? "; that was its last: the series has ended"
                        : "; next: occurrence " + after.occurrence() + " at " + at(after)));
    }

    /** One entry of the record, as {@code :sent} lists it. */
    public void record(SentEntry entry) {
        ScheduledMessage message = entry.message();
        String due = message.isWhenOnline() ? "when " + loginOf(message) : "due " + times.when(message.dueAt());
        String outcome = switch (entry.outcome()) {
            case SENT -> "sent " + times.when(entry.at()) + sentDetails(entry);
            case FAILED -> "failed: " + why(entry.reason());
            case DROPPED -> "dropped: " + why(entry.reason());
            default -> entry.outcome().name().toLowerCase(Locale.ROOT) + " " + times.when(entry.at());
        };
        console.print("  #" + message.number() + (message.occurrence() > 0 ? " (occurrence " + message.occurrence() + ")"
                : "") + "  to " + message.recipient() + "  " + shortened(message.text()) + "  " + due + "  " + outcome);
    }

    /** " (late 0.2s)", " (late 10m; 9 occurrences missed ...)"; "" for a "when online" one without a note. */
    private static String sentDetails(SentEntry entry) {
        ScheduledMessage message = entry.message();
        String late = message.isWhenOnline() ? "" : "late " + late(Duration.between(message.dueAt(), entry.at()));
        String note = Inert.line(entry.reason());
        String details = late.isEmpty() || note.isEmpty() ? late + note : late + "; " + note;
        return details.isEmpty() ? "" : " (" + details + ")";
    }

    /** News of a scheduled message of the user's: another terminal changed it, it was sent, failed, dropped or skipped. */
    public void change(ScheduledChange change) {
        ScheduledMessage message = change.message();
        String which = "scheduled message #" + message.number() + " to " + message.recipient();
        switch (change.kind()) {
            case SCHEDULED -> console.print(which + " was scheduled on another terminal, for " + due(message));
            case EDITED -> console.print(which + " was changed on another terminal: now due " + due(message));
            case CANCELLED -> console.print(which + " was cancelled on another terminal");
            case SENT -> console.print(which + " was sent" + sentNote(message, change.reason()) + next(change));
            case FAILED -> console.print("error: " + which + " could not be sent: " + Inert.line(change.reason())
                    + next(change));
            case DROPPED -> console.print(which + " was dropped: " + why(change.reason()) + next(change));
            case SKIPPED -> console.print(which + ": occurrence " + message.occurrence()
                    + " was skipped on another terminal" + next(change));
        }
    }

    /**
     * When {@code message} goes, for people: {@code 17:30:00}; with the recipient's clock
     * beside; {@code when bob logs in}; a series' next time, rule, next occurrence and end; and its
     * late policy.
     */
    public String due(ScheduledMessage message) {
        When when = message.when();
        if (message.isWhenOnline()) {
            return "when " + loginOf(message) + deadline(message).map(d -> ", until " + times.when(d)).orElse("");
        }
        String due = at(message);
        if (message.isRecurring()) {
            due += ", " + rule(when) + ", next #" + message.occurrence() + (when.times() > 0 ? " of " + when.times() : "")
                    + when.until().map(end -> ", until " + times.when(end)).orElse("");
        }
        return due + late(when);
    }

    /** The due time on the user's clock, and on the recipient's beside it when that shows another time. */
    private String at(ScheduledMessage message) {
        Instant due = message.dueAt();
        String mine = times.when(due);
        Optional<ZoneId> theirs = message.recipientZone().filter(zone -> times.differs(due, zone));
        return theirs.map(zone -> mine + " " + Times.zoneName(due, times.zone()) + " (" + times.when(due, zone) + " "
                + Times.zoneName(due, zone) + " their time)").orElse(mine);
    }

    /** "every weekday at 09:00", or the rule as the server wrote it if this client cannot read it. */
    private static String rule(When when) {
        try {
            return Recurrence.parse(when.every()).describe();
        } catch (IllegalArgumentException unknown) {
            return "every " + Inert.line(when.every());
        }
    }

    private String ends(When when) {
        return (when.times() > 0 ? ", " + when.times() + (when.times() == 1 ? " time" : " times") : "")
                + when.until().map(end -> ", until " + times.when(end)).orElse("");
    }

    private static String late(When when) {
        return when.lateLimit().isZero() ? "" : ", dropped if over " + DelayFormat.format(when.lateLimit()) + " late";
    }

    /** How late, for people: tenths of a second under a minute ({@code 0.2s}), else rounded ({@code 10m3s}). */
    static String late(Duration late) {
        if (late.isNegative()) {
            late = Duration.ZERO;
        }
        if (late.compareTo(Duration.ofMinutes(1)) < 0) {
            return String.format(Locale.ROOT, "%.1fs", late.toMillis() / 1000.0);
        }
        return DelayFormat.rounded(late);
    }

    /** " (occurrence 4; 2 occurrences missed ...)" for a series, " (bob logged in)" for a "when online" one. */
    private static String sentNote(ScheduledMessage message, String note) {
        String shown = note.isEmpty() ? "" : Inert.line(note);
        if (message.isRecurring()) {
            return " (occurrence " + message.occurrence() + (shown.isEmpty() ? "" : "; " + shown) + ")";
        }
        if (message.isWhenOnline()) {
            return " (" + loginOf(message).replace("logs in", "logged in") + ")";
        }
        return shown.isEmpty() ? "" : " (" + shown + ")";
    }

    /** For a series: its next occurrence, or that it has ended. */
    private String next(ScheduledChange change) {
        if (!change.message().isRecurring()) {
            return "";
        }
        return change.next().map(next -> "; next: occurrence " + next.occurrence() + " at " + at(next))
                .orElse("; the series has ended");
    }

    /** "bob logs in": who a "when online" message waits for. */
    private static String loginOf(ScheduledMessage message) {
        return Inert.line(message.recipient().name()) + " logs in";
    }

    private static Optional<Instant> deadline(ScheduledMessage message) {
        return Optional.of(message.dueAt()).filter(due -> !due.equals(NO_DEADLINE));
    }

    /** Why it was not sent, without the "not sent: " the server starts it with. */
    private static String why(String reason) {
        String why = reason.startsWith("not sent: ") ? reason.substring("not sent: ".length()) : reason;
        return Inert.line(why.isEmpty() ? "no reason given" : why);
    }

    /** {@code text} on one line, cut to {@value #RECORD_TEXT} characters. */
    static String shortened(String text) {
        if (text.codePointCount(0, text.length()) <= RECORD_TEXT) {
            return Inert.line(text);
        }
        return Inert.line(text.substring(0, text.offsetByCodePoints(0, RECORD_TEXT - 3))) + "...";
    }
}
