package dev.cim.server.session;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The sessions logged in on this node, looked up without leaving the process: routing to a user on
 * this node costs no Redis round trip. Implementations are safe for concurrent use.
 */
public interface SessionRegistry {

    /** Adds {@code session}; returns how many sessions its user has now. */
    int add(Session session);

    /** Removes {@code session}; returns how many sessions its user has left, or -1 if it was not here. */
    int remove(Session session);

    /** The sessions of {@code user}; empty when the user is not logged in on this node. */
    List<Session> sessionsOf(String user);

    /** Every session on this node. */
    Collection<Session> all();

    /** Each user on this node with their session count; a snapshot. */
    Map<String, Integer> userSessionCounts();
}
