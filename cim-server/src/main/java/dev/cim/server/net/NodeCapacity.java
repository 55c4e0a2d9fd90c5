package dev.cim.server.net;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * How many logged-in connections this node takes: a login past them is answered with a
 * {@code GoAway} naming the other live nodes that take logins, and the connection is closed. The
 * client moves to one of them after a random wait within {@link #SPREAD_TO_OTHERS}. When every node
 * is full it names none, and the client tries here again within {@link #SPREAD_ALL_FULL} (or its
 * backoff, if longer): once a node has room again (one that restarted, or one whose users left), the
 * next refusal names it. Each node says at its heartbeat whether it is full. The longer spread when
 * all are full is for the node that restarts: the clients of a stopped node that the others could
 * not take retry meanwhile, and where the nodes share cores, their retries slow its start.
 *
 * <p>Why: a process has a cap on open files, and a socket is one. A node at the cap cannot even
 * accept a connection to say it is full, and a client's connection attempt then waits for a timeout
 * in the listen backlog. Below the cap, with room for its own files and for the logins being refused,
 * a node answers at once. By default the limit is the open-file cap less {@link #reserve(long) a
 * reserve}.
 *
 * <p>Counted from the login's start (before the password is checked, so a full node spends nothing
 * on it) to the connection's close, whatever happens between; thread-safe.
 */
final class NodeCapacity {

    /** The wait a client spreads its move over when there are other nodes to move to. */
    static final Duration SPREAD_TO_OTHERS = Duration.ofSeconds(1);
    /** The wait a client spreads its next try over when every node is full. */
    static final Duration SPREAD_ALL_FULL = Duration.ofSeconds(10);

    private final int max;
    private final String nodeId;
    private final Supplier<List<String>> otherNodes;
    private final AtomicInteger taken = new AtomicInteger();

    /**
     * @param max         logged-in connections at most
     * @param nodeId      this node, for the clients told it is full
     * @param otherNodes  the other live nodes that take logins, by address (as of the last heartbeat:
     *                    read on the event loop, so never a call to the store)
     */
    NodeCapacity(int max, String nodeId, Supplier<List<String>> otherNodes) {
        if (max < 1) {
            throw new IllegalArgumentException("max connections " + max + " (expected: >= 1)");
        }
        this.max = max;
        this.nodeId = nodeId;
        this.otherNodes = otherNodes;
    }

    /** Takes one place for a login, unless all are taken: then false. */
    boolean take() {
        int now;
        do {
            now = taken.get();
            if (now >= max) {
                return false;
            }
        } while (!taken.compareAndSet(now, now + 1));
        return true;
    }

    /** Gives back a place {@link #take() taken}. */
    void release() {
        taken.decrementAndGet();
    }

    /** True when every place is taken. */
    boolean full() {
        return taken.get() >= max;
    }

    /** Places taken now. */
    int taken() {
        return taken.get();
    }

    int max() {
        return max;
    }

    /** What a login refused for want of room is told: where to go, and over how long to spread it. */
    Envelope goAway() {
        List<String> others = new ArrayList<>(otherNodes.get());
        Collections.shuffle(others, ThreadLocalRandom.current()); // the refused spread over them
        return Envelopes.goAway("the server node " + nodeId + " is full (" + max
                + " connections, cim.server.limits.max-connections)", others,
                (others.isEmpty() ? SPREAD_ALL_FULL : SPREAD_TO_OTHERS).toMillis());
    }

    /**
     * The limit when none is configured: the process's open-file cap less a reserve, or no limit when
     * the cap cannot be read (not a Unix JVM).
     */
    static int fromOpenFileLimit() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return fromOpenFileLimit(unix.getMaxFileDescriptorCount());
        }
        return Integer.MAX_VALUE;
    }

    /** {@code openFiles} less {@link #reserve}; at least 1. */
    static int fromOpenFileLimit(long openFiles) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, openFiles - reserve(openFiles)));
    }

    /**
     * The open files kept for everything but logged-in connections: the jars, the Redis connections,
     * the listening sockets, logs, and the logins being refused at the limit. 5 %, at least 256: a
     * server at rest holds 50 (epoll, 2 I/O threads).
     */
    static long reserve(long openFiles) {
        return Math.max(256, openFiles / 20);
    }
}
