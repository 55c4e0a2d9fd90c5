package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.ScheduledChange;
import dev.cim.server.chat.routing.Terminals;
import dev.cim.server.chat.session.Replies;
import dev.cim.server.chat.session.Session;
import java.util.function.Supplier;

/**
 * Tells a user's terminals what became of their scheduled messages: the one that asked gets the
 * answer to its request, every other one (here, and on the other nodes the user is on) the news, so
 * that every terminal's list stays the same. The news is built only when somebody is there to hear
 * it (mostly nobody).
 */
final class ScheduleNews {

    private final Terminals terminals;

    ScheduleNews(Terminals terminals) {
        this.terminals = terminals;
    }

    /** Answers {@code session}'s request {@code requestId} and tells the user's other terminals. */
    void changed(Session session, long requestId, ScheduledChange.Kind kind, Scheduled message) {
        Replies replies = new Replies();
        changed(replies, session, requestId, kind, message);
        replies.send();
    }

    /** {@link #changed(Session, long, ScheduledChange.Kind, Scheduled)}, adding to {@code replies}. */
    void changed(Replies replies, Session session, long requestId, ScheduledChange.Kind kind, Scheduled message) {
        replies.add(session, Envelopes.scheduledChange(requestId, kind, message));
        tell(replies, session.user(), session, () -> ScheduledChange.newBuilder().setKind(kind).setMessage(message).build());
    }

    /**
     * Tells every terminal of {@code user} but {@code except} (null: all), here and on the other
     * nodes, about {@code change}.
     */
    void tell(Replies replies, String user, Session except, Supplier<ScheduledChange> change) {
        terminals.tell(replies, user, except, () -> Envelopes.scheduledChange(0, change.get()),
                "about a scheduled message");
    }
}
