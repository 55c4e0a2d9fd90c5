package dev.cim.server.chat.session;

import dev.cim.common.protocol.proto.Envelope;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Envelopes gathered off the I/O threads for several sessions, then written to each session in one
 * task on its connection's thread and flushed once: a batch of a thousand registrations from a few
 * hundred senders costs a task per sender, not one per answer and per other terminal. Each
 * session's envelopes keep their order. Not thread-safe: one batch's.
 */
public final class Replies {

    private final Map<Session, List<Envelope>> bySession = new LinkedHashMap<>();

    /** Queues {@code envelope} for {@code session}. */
    public void add(Session session, Envelope envelope) {
        bySession.computeIfAbsent(session, s -> new ArrayList<>(4)).add(envelope);
    }

    /** Hands each session its envelopes, to be written unless its connection closed meanwhile. */
    public void send() {
        bySession.forEach((session, envelopes) -> session.connection().owner().execute(() -> {
            if (session.connection().isOpen()) {
                envelopes.forEach(session.connection()::write);
                session.connection().flush();
            }
        }));
        bySession.clear();
    }
}
