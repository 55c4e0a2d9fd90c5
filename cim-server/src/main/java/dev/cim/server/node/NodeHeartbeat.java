package dev.cim.server.node;

import dev.cim.server.chat.ChatCore;
import dev.cim.server.store.PresenceStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps this node alive in Redis: registers it at start (the first Redis call, so an unreachable
 * Redis fails start-up), starts the chat core's background work, refreshes the node's and its users'
 * presence every refresh interval, and removes them at stop. After each refresh it tells the core how
 * many other nodes are alive, so routing knows without asking Redis whether anything needs relaying.
 *
 * <p>Phase {@link #PHASE}: it starts before the server accepts connections and stops after the server
 * has closed them, so no refresh re-announces users who just left.
 */
public final class NodeHeartbeat implements SmartLifecycle {

    /** Below the server's phase: start first, stop last. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2048;

    private static final Logger log = LoggerFactory.getLogger(NodeHeartbeat.class);

    private final PresenceStore presence;
    private final ChatCore core;
    private final Duration refreshInterval;
    private final Supplier<String> address;
    private ScheduledExecutorService timer;

    /**
     * @param address the node's listen address, asked at each refresh (known once the server has bound)
     */
    public NodeHeartbeat(PresenceStore presence, ChatCore core, Duration refreshInterval, Supplier<String> address) {
        this.presence = presence;
        this.core = core;
        this.refreshInterval = refreshInterval;
        this.address = address;
    }

    @Override
    public synchronized void start() {
        if (timer != null) {
            return;
        }
        presence.registerNode(address.get());
        core.peers(peers());
        core.start();
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cim-heartbeat-" + presence.nodeId());
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
            presence.refresh(address.get(), core.users().sessionCounts());
            core.peers(peers());
        } catch (RuntimeException e) {
            log.warn("Presence refresh of node {} failed, retrying in {}: {}", presence.nodeId(), refreshInterval,
                    e.toString());
        }
    }

    private int peers() {
        Map<String, String> live = presence.liveNodes();
        return live.size() - (live.containsKey(presence.nodeId()) ? 1 : 0);
    }

    @Override
    public synchronized void stop() {
        if (timer == null) {
            return;
        }
        timer.shutdownNow();
        timer = null;
        core.close();
        try {
            presence.unregisterNode(core.users().sessionCounts().keySet());
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
