package dev.cim.server;

import dev.cim.common.protocol.CimProtocolCodec;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The settings of the cim server, {@code cim.server.*}. Redis is set with Spring Boot's
 * {@code spring.data.redis.*} and {@code cim.redis.embedded} (see
 * {@link dev.cim.server.redis.CimRedisProperties}).
 *
 * @param host           the address to listen on; {@code 0.0.0.0} for every interface
 * @param port           the TCP port to listen on; 0 picks a free port (the bound one is logged and
 *                       available from {@link dev.cim.server.net.CimServer#port()})
 * @param idleTimeout    a connection that sends nothing for this long is closed and its user's
 *                       presence removed; clients are told to ping every third of it
 * @param maxFrameSize   the longest frame accepted, length field included; a longer one closes the
 *                       connection
 * @param nodeId         this server's name in Redis presence and message ids; generated
 *                       ({@code node-} and 8 hex digits) when empty. Give each node its own.
 * @param ioThreads      Netty I/O threads, which read, route and write chat messages; 0 for one per
 *                       core. More threads than cores only add hand-offs between them: on 2 cores,
 *                       4 threads carried 22% fewer messages per second than 2 (cim-loadgen, part 1)
 * @param epoll          use Linux's native epoll transport where it loads (fewer system calls per
 *                       message than Java NIO); false for NIO everywhere
 * @param workerThreads  threads for the handlers that block (password hashing, Redis calls), kept
 *                       off the Netty I/O threads
 * @param presence       how presence in Redis is kept alive
 * @param accounts       how passwords are hashed
 */
@ConfigurationProperties("cim.server")
public record CimServerProperties(
        @DefaultValue("0.0.0.0") String host,
        @DefaultValue("9000") int port,
        @DefaultValue("45s") Duration idleTimeout,
        @DefaultValue("64KB") DataSize maxFrameSize,
        String nodeId,
        @DefaultValue("0") int ioThreads,
        @DefaultValue("true") boolean epoll,
        @DefaultValue("4") int workerThreads,
        @DefaultValue Presence presence,
        @DefaultValue Accounts accounts) {

    /**
     * Presence: each node refreshes, every {@code refreshInterval}, the Redis keys that say which of
     * its users are online; the keys expire {@code ttl} after the last refresh, so the users of a node
     * that died drop out of presence within {@code ttl}.
     *
     * @param ttl             how long presence keys live without a refresh
     * @param refreshInterval how often a live node refreshes them; less than {@code ttl}
     */
    public record Presence(@DefaultValue("30s") Duration ttl, @DefaultValue("10s") Duration refreshInterval) {
        public Presence {
            requirePositive(ttl, "cim.server.presence.ttl");
            requirePositive(refreshInterval, "cim.server.presence.refresh-interval");
            if (refreshInterval.compareTo(ttl) >= 0) {
                throw new IllegalArgumentException("cim.server.presence.refresh-interval: " + refreshInterval
                        + " (expected: < cim.server.presence.ttl = " + ttl + ")");
            }
        }
    }

    /**
     * Accounts: passwords are kept only as BCrypt hashes.
     *
     * @param bcryptStrength the BCrypt log2 cost, 4 to 31; each step doubles the time to hash (10
     *                       takes tens of milliseconds, which is the point: guessing is slow)
     */
    public record Accounts(@DefaultValue("10") int bcryptStrength) {
        public Accounts {
            if (bcryptStrength < 4 || bcryptStrength > 31) {
                throw new IllegalArgumentException("cim.server.accounts.bcrypt-strength: " + bcryptStrength
                        + " (expected: 4 <= strength <= 31)");
            }
        }
    }

    public CimServerProperties {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("cim.server.port: " + port + " (expected: 0 <= port <= 65535)");
        }
        requirePositive(idleTimeout, "cim.server.idle-timeout");
        long frame = maxFrameSize.toBytes();
        if (frame < CimProtocolCodec.MIN_MAX_FRAME_LENGTH || frame > CimProtocolCodec.MAX_MAX_FRAME_LENGTH) {
            throw new IllegalArgumentException("cim.server.max-frame-size: " + maxFrameSize + " (expected: "
                    + CimProtocolCodec.MIN_MAX_FRAME_LENGTH + "B to " + CimProtocolCodec.MAX_MAX_FRAME_LENGTH + "B)");
        }
        if (ioThreads < 0) {
            throw new IllegalArgumentException("cim.server.io-threads: " + ioThreads
                    + " (expected: >= 0, 0 for one per core)");
        }
        if (workerThreads < 1) {
            throw new IllegalArgumentException("cim.server.worker-threads: " + workerThreads + " (expected: >= 1)");
        }
        if (nodeId == null || nodeId.isBlank()) {
            byte[] random = new byte[4];
            ThreadLocalRandom.current().nextBytes(random);
            nodeId = "node-" + HexFormat.of().formatHex(random);
        } else if (!nodeId.matches("[A-Za-z0-9_.-]{1,64}")) {
            // It becomes part of Redis keys and message ids: no separators, no spaces.
            throw new IllegalArgumentException("cim.server.node-id: '" + nodeId
                    + "' (expected: 1 to 64 of A-Z a-z 0-9 _ - .)");
        }
    }

    /** The I/O threads to start: {@link #ioThreads()}, or one per core when that is 0. */
    public int effectiveIoThreads() {
        return ioThreads > 0 ? ioThreads : Runtime.getRuntime().availableProcessors();
    }

    /** How often clients are asked to ping: a third of the idle timeout, so two pings may be lost. */
    public Duration heartbeatInterval() {
        return idleTimeout.dividedBy(3);
    }

    private static void requirePositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + ": " + d + " (expected: > 0)");
        }
    }
}
