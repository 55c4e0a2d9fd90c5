package dev.cim.server.session;

import dev.cim.server.presence.PresenceStore;
import io.netty.channel.Channel;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens and closes sessions, keeping the local {@link SessionRegistry} and the shared presence in
 * Redis in step: a user's presence on this node is written when their first session opens and
 * removed when their last one closes.
 *
 * <p>Opening and closing are serialised by one lock so that the Redis write always follows the
 * registry change it mirrors; they happen once per login and logout, so one lock is no bottleneck.
 * They call Redis, so call them off the Netty I/O threads.
 */
public final class SessionManager {

    private static final Logger log = LoggerFactory.getLogger(SessionManager.class);

    private final SessionRegistry registry;
    private final PresenceStore presence;
    private final AtomicLong lastId = new AtomicLong();
    private final Object lock = new Object();

    public SessionManager(SessionRegistry registry, PresenceStore presence) {
        this.registry = registry;
        this.presence = presence;
    }

    /**
     * Registers a session of {@code user} on {@code channel} and marks the user online here.
     *
     * @throws RuntimeException from the presence store; the session is then not registered
     */
    public Session open(String user, Channel channel) {
        Session session = new Session(lastId.incrementAndGet(), user, channel);
        synchronized (lock) {
            int count = registry.add(session);
            try {
                presence.userOnline(user, count);
            } catch (RuntimeException e) {
                registry.remove(session);
                throw e;
            }
        }
        log.info("Session {} opened", session);
        return session;
    }

    /** Unregisters {@code session}; when it was its user's last, the user goes offline here. */
    public void close(Session session) {
        synchronized (lock) {
            int left = registry.remove(session);
            if (left < 0) {
                return;
            }
            try {
                if (left == 0) {
                    presence.userOffline(session.user());
                } else {
                    presence.userOnline(session.user(), left);
                }
            } catch (RuntimeException e) {
                // The presence key expires by itself within its TTL; nothing else to undo.
                log.warn("Could not update presence of {} after closing session {}: {}", session.user(),
                        session, e.toString());
            }
        }
        log.info("Session {} closed", session);
    }

    /** The local registry, for routing. */
    public SessionRegistry registry() {
        return registry;
    }
}
