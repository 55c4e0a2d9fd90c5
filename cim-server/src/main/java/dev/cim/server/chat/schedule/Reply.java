package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.chat.session.Replies;
import dev.cim.server.chat.session.Session;
import dev.cim.server.store.StoreFullException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The answers every part of scheduling gives the same way. */
final class Reply {

    private static final Logger log = LoggerFactory.getLogger(Reply.class);

    private Reply() {
    }

    /** Writes {@code envelope} to {@code session} on its owner thread (unless it closed meanwhile). */
    static void to(Session session, Envelope envelope) {
        Replies one = new Replies();
        one.add(session, envelope);
        one.send();
    }

    /** Request {@code id} of {@code session} failed on the server's side: it may be tried again. */
    static void failed(Session session, long id, RuntimeException e) {
        log.error("A scheduled-message request of {} failed: {}", session, e.toString());
        to(session, Envelopes.error(id, ErrorReply.Code.INTERNAL, StoreFullException.describe(e) + "; try again", false));
    }

    /** The answer to request {@code id} about message {@code messageId}, which is not held. */
    static Envelope notFound(long id, String messageId) {
        return Envelopes.error(id, ErrorReply.Code.NOT_FOUND, "no scheduled message " + messageId
                + " (sent or cancelled already, or never scheduled)", false);
    }
}
