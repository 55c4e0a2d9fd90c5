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
        changed(session, requestId, kind, message, null);
    }

    /** The same, for a recurring message whose series is now at {@code next} (null: none, or not recurring). */
    void changed(Session session, long requestId, ScheduledChange.Kind kind, Scheduled message, Scheduled next) {
        Replies replies = new Replies();
        ScheduledChange.Builder change = ScheduledChange.newBuilder().setKind(kind).setMessage(message);
        if (next != null) {
            change.setNext(next);
        }
        changed(replies, session, requestId, change.build());
        replies.send();
    }

    /** {@link #changed(Session, long, ScheduledChange.Kind, Scheduled)}, adding to {@code replies}. */
    void changed(Replies replies, Session session, long requestId, ScheduledChange.Kind kind, Scheduled message) {
        changed(replies, session, requestId, ScheduledChange.newBuilder().setKind(kind).setMessage(message).build());
    }

    private void changed(Replies replies, Session session, long requestId, ScheduledChange change) {
        replies.add(session, Envelopes.scheduledChange(requestId, change));
        tell(replies, session.user(), session, () -> change);
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
