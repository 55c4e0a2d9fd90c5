package dev.cim.server.node;

import dev.cim.server.chat.ChatCore;
import dev.cim.server.store.PresenceStore;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps this node alive in Redis: registers it at start (the first Redis call, so an unreachable
 * Redis fails start-up), starts the chat core's background work, renews the node's liveness key at
 * every heartbeat and its users' presence every refresh interval, and removes them at stop. After
 * each heartbeat it tells the core which nodes are alive, so routing knows without asking Redis
 * whether anything needs relaying, and a node that died is seen within seconds. It also says whether
 * the node is full, and learns which others are, for the logins a full node sends elsewhere.
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
    private final Duration heartbeat;
    private final Duration refreshInterval;
    private final Supplier<String> address;
    private final BooleanSupplier full;
    private ScheduledExecutorService timer;
    /** When the users' presence was last refreshed, in nanoseconds of the heartbeat's thread. */
    private long refreshedNanos;

    /**
     * @param heartbeat       how often the node's liveness key is renewed
     * @param refreshInterval how often its users' presence is renewed
     * @param address         the node's listen address, asked at each heartbeat (known once the server
     *                        has bound)
     * @param full            whether the node takes no more logins, asked at each heartbeat
     */
    public NodeHeartbeat(PresenceStore presence, ChatCore core, Duration heartbeat, Duration refreshInterval,
            Supplier<String> address, BooleanSupplier full) {
        this.presence = presence;
        this.core = core;
        this.heartbeat = heartbeat;
        this.refreshInterval = refreshInterval;
        this.address = address;
        this.full = full;
    }

    @Override
    public synchronized void start() {
        if (timer != null) {
            return;
        }
        presence.registerNode(address.get());
        core.liveNodes(presence.liveNodes(), presence.fullNodes());
        core.start();
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cim-heartbeat-" + presence.nodeId());
            t.setDaemon(true);
            return t;
        });
        refreshedNanos = System.nanoTime();
        // A refresh renews the liveness key too: beat at the shorter of the two.
        long period = Math.min(heartbeat.toMillis(), refreshInterval.toMillis());
        timer.scheduleWithFixedDelay(this::beat, period, period, TimeUnit.MILLISECONDS);
        log.info("Node {} registered; heartbeat every {}, presence refreshed every {}", presence.nodeId(), heartbeat,
                refreshInterval);
    }

    /**
     * One heartbeat: the node's liveness key, and every refresh interval its users' presence; then
     * which nodes are alive, for the core. A failure is logged and the next heartbeat tries again.
     */
    private void beat() {
        try {
            long now = System.nanoTime(); // the heartbeat's own thread, its own pace: not a clock to inject
            presence.full(full.getAsBoolean());
            if (now - refreshedNanos >= refreshInterval.toNanos()) {
                refresh();
                refreshedNanos = now;
            } else {
                presence.heartbeat(address.get());
            }
            core.liveNodes(presence.liveNodes(), presence.fullNodes());
        } catch (RuntimeException e) {
            log.warn("Heartbeat of node {} failed, trying again in {}: {}", presence.nodeId(), heartbeat, e.toString());
        }
    }

    /**
     * Refreshes the node's liveness and its users' presence now. A user whose presence had lapsed
     * (the refreshes failed for longer than its time to live, or the store lost it) counted as offline
     * meanwhile, so messages to them may be in their inbox: their sessions here are told to read it.
     * From the start of the refresh until then (or, if it fails, until one succeeds), the presence here
     * is in doubt: a relay that comes meanwhile, sent once the other node saw the renewed presence, has
     * its recipient's sessions read the inbox first, so that it cannot overtake what was stored.
     */
    private void refresh() {
        core.presenceInDoubt();
        int[] lapsed = {0};
        presence.refresh(address.get(), core.users().sessionCounts(), user -> {
            lapsed[0]++;
            core.presenceLapsed(user);
        });
        core.presenceRenewed();
        if (lapsed[0] > 0) {
            log.info("The presence of {} user(s) of node {} had lapsed: their sessions here read their inbox",
                    lapsed[0], presence.nodeId());
        }
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
