package dev.cim.server.presence;

import dev.cim.server.session.SessionRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps this node's presence alive in Redis: registers the node at start (the first Redis call, so
 * an unreachable Redis fails start-up), refreshes the node and its users' presence keys every
 * refresh interval, and removes them at stop. After each refresh it reports the other live nodes,
 * so routing knows without asking Redis whether anything needs relaying.
 *
 * <p>Phase {@link #PHASE}: it starts before the {@code CimServer} accepts connections and stops
 * after the server has closed them, so no refresh re-announces users who just left.
 */
public final class PresenceHeartbeat implements SmartLifecycle {

    /** Below the server's phase: start first, stop last. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2048;

    private static final Logger log = LoggerFactory.getLogger(PresenceHeartbeat.class);

    private final PresenceStore presence;
    private final SessionRegistry sessions;
    private final Duration refreshInterval;
    private final Supplier<String> address;
    private final Consumer<Set<String>> peersListener;
    private ScheduledExecutorService timer;

    /**
     * @param address       the node's listen address, asked at each refresh (it is known only
     *                      once the server has bound)
     * @param peersListener told the other live nodes after registering and after each refresh
     */
    public PresenceHeartbeat(PresenceStore presence, SessionRegistry sessions, Duration refreshInterval,
            Supplier<String> address, Consumer<Set<String>> peersListener) {
        this.presence = presence;
        this.sessions = sessions;
        this.refreshInterval = refreshInterval;
        this.address = address;
        this.peersListener = peersListener;
    }

    @Override
    public synchronized void start() {
        if (timer != null) {
            return;
        }
        presence.registerNode(address.get());
        peersListener.accept(peers());
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cim-presence-" + presence.nodeId());
            t.setDaemon(true);
            return t;
        });
        long period = refreshInterval.toMillis();
        timer.scheduleWithFixedDelay(this::refresh, period, period, TimeUnit.MILLISECONDS);
        log.info("Node {} registered; presence refreshed every {}", presence.nodeId(), refreshInterval);
    }

    /** Refreshes now; a failure is logged and the next refresh tries again. */
    public void refresh() {
        try {
            presence.refresh(address.get(), sessions.userSessionCounts());
            peersListener.accept(peers());
        } catch (RuntimeException e) {
            log.warn("Presence refresh of node {} failed, retrying in {}: {}", presence.nodeId(), refreshInterval,
                    e.toString());
        }
    }

    private Set<String> peers() {
        Set<String> peers = new HashSet<>(presence.liveNodes());
        peers.remove(presence.nodeId());
        return peers;
    }

    @Override
    public synchronized void stop() {
        if (timer == null) {
            return;
        }
        timer.shutdownNow();
        timer = null;
        try {
            presence.unregisterNode(sessions.userSessionCounts().keySet());
            log.info("Node {} unregistered", presence.nodeId());
        } catch (RuntimeException e) {
            log.warn("Could not unregister node {}; its keys expire by themselves: {}", presence.nodeId(),
                    e.toString());
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return timer != null;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
