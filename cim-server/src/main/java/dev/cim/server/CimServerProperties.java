package dev.cim.server;

import dev.cim.common.net.NettyTransport;
import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.CimProtocolCodec;
import dev.cim.common.tls.TlsProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Every setting of the cim server, {@code cim.server.*}. Where Redis is comes from Spring Boot's
 * {@code spring.data.redis.*}; the management HTTP port (metrics, health) from
 * {@code management.server.port}. Invalid values stop the server at start-up with a message naming
 * the setting and what was expected.
 *
 * @param host          the address to listen on for chat clients
 * @param port          the TCP port to listen on; 0 picks a free port (the bound one is logged)
 * @param idleTimeout   a connection that sends nothing for this long is closed; clients are told to
 *                      ping every half of it
 * @param maxFrameSize  the longest frame accepted, length field included; a longer one closes the
 *                      connection
 * @param nodeId        this server's name in Redis; generated ({@code node-} and 8 hex digits) when
 *                      empty. Give each node its own.
 * @param ioThreads     Netty I/O threads, which read, route and write chat messages; 0 for one per
 *                      core. More threads than cores only add hand-offs between them: on 2 cores, 4
 *                      threads carried 22% fewer messages per second than 2 (cim-loadgen, part 1)
 * @param epoll         use Linux's native epoll transport where it loads (fewer system calls per
 *                      message than Java NIO); false for NIO everywhere
 * @param workerThreads threads for logins (password hashing, and the store reads most of a login
 *                      waits on), off the I/O threads
 * @param lanes         threads for the users' Redis work (inboxes, presence, scheduled messages);
 *                      each user's work runs on one of them, in order. They wait on Redis more than
 *                      they compute: a login is about seven round trips on its user's lane, and
 *                      6,000 users logging in again ran at 733/s on 4 lanes, 960/s on 16, 1,089/s
 *                      on 32 (cim-loadgen part 3, 2 cores)
 * @param dataDir       where the embedded Redis keeps its append-only file; empty for
 *                      {@code ~/.cim/data/redis-<port>}
 * @param redis         how the server gets its Redis
 * @param presence      how presence in Redis is kept alive
 * @param accounts      how passwords are hashed
 * @param limits        what one client may make the server hold
 * @param delays        scheduled messages
 * @param shutdown      how a stopping node hands its clients over
 * @param tls           TLS on the chat port
 *
 * <p>The one documented properties type of the server, as Spring Boot's are: its length is a javadoc
 * sentence per property, which becomes the property's description.
 */
@ConfigurationProperties("cim.server")
public record CimServerProperties(
        @DefaultValue("127.0.0.1") String host,
        @DefaultValue("9000") int port,
        @DefaultValue("90s") Duration idleTimeout,
        @DefaultValue("64KB") DataSize maxFrameSize,
        String nodeId,
        @DefaultValue("0") int ioThreads,
        @DefaultValue("true") boolean epoll,
        @DefaultValue("16") int workerThreads,
        @DefaultValue("16") int lanes,
        Path dataDir,
        @DefaultValue Redis redis,
        @DefaultValue Presence presence,
        @DefaultValue Accounts accounts,
        @DefaultValue Limits limits,
        @DefaultValue Delays delays,
        @DefaultValue Groups groups,
        @DefaultValue History history,
        @DefaultValue Web web,
        @DefaultValue Shutdown shutdown,
        @DefaultValue Tls tls) {

    /**
     * Redis. The embedded one is locked down (a generated password, no {@code CONFIG}, {@code DEBUG}
     * or {@code MODULE}, a memory limit that refuses writes rather than evicting anything: see
     * {@code RedisLockdown}); an external one is reached with Spring Boot's
     * {@code spring.data.redis.*} (host, port, {@code username}, {@code password}, {@code ssl.*}).
     *
     * @param embedded   true to run a redis-server process of the server's own on
     *                   {@code spring.data.redis.port}, bound to 127.0.0.1, persisting to
     *                   {@code data-dir}, and stopped with the server; false to use the Redis at
     *                   {@code spring.data.redis.host}:{@code port}
     * @param fsync      when the embedded Redis writes its append-only file to disk:
     *                   {@code everysec} (at most the last second lost if Redis or the machine dies)
     *                   or {@code always} (every write, slower)
     * @param executable the embedded Redis' binary: empty for the first redis-server 7 or later on the
     *                   {@code PATH} (Debian's package), else the 6.2 bundled in the embedded-redis jar
     *                   with a warning; {@code bundled} for the jar's; or a path
     * @param maxmemory  the most memory the embedded Redis may use for data; past it, writes are
     *                   refused (the sender is told the server's storage is full) and nothing stored
     *                   is evicted. At least 1MB
     * @param replicasToAck how many replicas must have a message stored for a recipient (inbox,
     *                   group log, scheduled message) before it is confirmed to its sender (Redis
     *                   {@code WAIT}); 0, the default, confirms once the master has it
     * @param replicasAckTimeout how long a store waits for them; past it the message is refused for
     *                   now and its sender's client sends it again
     */
    public record Redis(@DefaultValue("true") boolean embedded, @DefaultValue("everysec") String fsync,
            @DefaultValue("") String executable, @DefaultValue("1GB") DataSize maxmemory,
            @DefaultValue("0") int replicasToAck, @DefaultValue("1s") Duration replicasAckTimeout) {
        public Redis {
            if (replicasToAck < 0) {
                throw new IllegalArgumentException("cim.server.redis.replicas-to-ack: " + replicasToAck
                        + " (expected: >= 0)");
            }
            if (replicasAckTimeout == null || replicasAckTimeout.toMillis() < 1) {
                throw new IllegalArgumentException("cim.server.redis.replicas-ack-timeout: " + replicasAckTimeout
                        + " (expected: at least 1ms)");
            }
            if (!"everysec".equals(fsync) && !"always".equals(fsync)) {
                throw new IllegalArgumentException("cim.server.redis.fsync: '" + fsync + "' (expected: everysec or always)");
            }
            if (maxmemory == null || maxmemory.toBytes() < DataSize.ofMegabytes(1).toBytes()) {
                throw new IllegalArgumentException("cim.server.redis.maxmemory: " + maxmemory + " (expected: >= 1MB)");
            }
        }
    }

    /**
     * Presence: each node refreshes, every {@code refreshInterval}, the Redis keys that say which of
     * its users are online; they expire {@code ttl} after the last refresh, so the users of a node
     * that died drop out of presence within {@code ttl}. Apart from them, each node renews a
     * liveness key of its own every {@code heartbeat}, which expires {@code nodeTtl} after: the other
     * nodes take a node whose key is gone for dead at their next heartbeat (its users for offline,
     * what waits for its answer for unanswered), within about {@code nodeTtl + heartbeat}.
     *
     * @param ttl             how long presence lives without a refresh
     * @param refreshInterval how often a live node refreshes it; less than {@code ttl}
     * @param nodeTtl         how long a node's liveness key lives without a heartbeat
     * @param heartbeat       how often a live node renews it, and reads which nodes are alive; less
     *                        than {@code nodeTtl}
     */
    public record Presence(@DefaultValue("30s") Duration ttl, @DefaultValue("10s") Duration refreshInterval,
            @DefaultValue("4s") Duration nodeTtl, @DefaultValue("1s") Duration heartbeat) {
        public Presence {
            requirePositive(ttl, "cim.server.presence.ttl");
            requirePositive(refreshInterval, "cim.server.presence.refresh-interval");
            requirePositive(nodeTtl, "cim.server.presence.node-ttl");
            requirePositive(heartbeat, "cim.server.presence.heartbeat");
            if (refreshInterval.compareTo(ttl) >= 0) {
                throw new IllegalArgumentException("cim.server.presence.refresh-interval: " + refreshInterval
                        + " (expected: < cim.server.presence.ttl = " + ttl + ")");
            }
            if (heartbeat.compareTo(nodeTtl) >= 0) {
                throw new IllegalArgumentException("cim.server.presence.heartbeat: " + heartbeat
                        + " (expected: < cim.server.presence.node-ttl = " + nodeTtl + ")");
            }
        }
    }

    /**
     * Accounts, logins and sessions. Passwords are kept only as BCrypt hashes; user names are unique
     * without case and without look-alikes (see {@code UserNames}).
     *
     * @param bcryptStrength     the BCrypt log2 cost, 4 to 31; each step doubles the time to hash (10
     *                           takes tens of milliseconds, which is the point: guessing is slow)
     * @param registration       {@code open}: the first login of a free name creates its account;
     *                           {@code closed}: only the admin tool ({@code cim-server account add})
     *                           creates accounts
     * @param minPasswordLength  the fewest characters a new account's password may have
     * @param sessionTtl         a session token expires this long after its last use
     * @param sessionsPerUser    session tokens kept per user (the ones used last)
     * @param freeFailures       failed logins (per account and per address) before each further attempt
     *                           must wait: 1 s, then twice as long each time, up to {@code maxLoginDelay}
     * @param maxLoginDelay      the longest wait between two attempts before the lock
     * @param lockAfterFailures  failed logins after which the account or address is locked
     * @param lockDuration       how long a lock lasts, and how long failures are remembered
     * @param registrationsPerAddress accounts one address may create before it must rest
     * @param registrationWindow how long an address must make no account before it may make more
     * @param rememberPasswords  how long a password found to match is remembered (as an HMAC under a
     *                           key of this process), so the same login again skips the hash; 0: never
     * @param rememberedPasswords how many accounts' passwords may be remembered at once (32 bytes each,
     *                           allocated at start)
     */
    public record Accounts(@DefaultValue("10") int bcryptStrength, @DefaultValue("open") Registration registration,
            @DefaultValue("8") int minPasswordLength, @DefaultValue("30d") Duration sessionTtl,
            @DefaultValue("20") int sessionsPerUser, @DefaultValue("5") int freeFailures,
            @DefaultValue("1m") Duration maxLoginDelay, @DefaultValue("20") int lockAfterFailures,
            @DefaultValue("15m") Duration lockDuration, @DefaultValue("20") int registrationsPerAddress,
            @DefaultValue("1h") Duration registrationWindow, @DefaultValue("20m") Duration rememberPasswords,
            @DefaultValue("100000") int rememberedPasswords) {
        public Accounts {
            if (bcryptStrength < 4 || bcryptStrength > 31) {
                throw new IllegalArgumentException("cim.server.accounts.bcrypt-strength: " + bcryptStrength
                        + " (expected: 4 <= strength <= 31)");
            }
            if (minPasswordLength < 1 || minPasswordLength > 72) {
                throw new IllegalArgumentException("cim.server.accounts.min-password-length: " + minPasswordLength
                        + " (expected: 1 to 72)");
            }
            requirePositive(sessionTtl, "cim.server.accounts.session-ttl");
            atLeast(sessionsPerUser, 1, "cim.server.accounts.sessions-per-user");
            atLeast(freeFailures, 1, "cim.server.accounts.free-failures");
            if (lockAfterFailures <= freeFailures) {
                throw new IllegalArgumentException("cim.server.accounts.lock-after-failures: " + lockAfterFailures
                        + " (expected: > cim.server.accounts.free-failures = " + freeFailures + ")");
            }
            requirePositive(maxLoginDelay, "cim.server.accounts.max-login-delay");
            requirePositive(lockDuration, "cim.server.accounts.lock-duration");
            if (lockDuration.compareTo(maxLoginDelay) < 0) {
                throw new IllegalArgumentException("cim.server.accounts.lock-duration: " + lockDuration
                        + " (expected: >= cim.server.accounts.max-login-delay = " + maxLoginDelay + ")");
            }
            atLeast(registrationsPerAddress, 1, "cim.server.accounts.registrations-per-address");
            requirePositive(registrationWindow, "cim.server.accounts.registration-window");
            if (rememberPasswords.isNegative()) {
                throw new IllegalArgumentException("cim.server.accounts.remember-passwords: " + rememberPasswords
                        + " (expected: >= 0; 0 remembers none)");
            }
            atLeast(rememberedPasswords, 1, "cim.server.accounts.remembered-passwords");
        }
    }

    /** Who may create accounts. */
    public enum Registration {
        /** The first login of a free name creates its account. */
        OPEN,
        /** Only the admin tool creates accounts. */
        CLOSED
    }

    /**
     * What one client may make the server hold.
     *
     * @param windowMessages   messages written to a session and not acknowledged, at most; a client
     *                         past it (or past {@code windowBytes}) is not reading, and is
     *                         disconnected with the reason (its messages wait in its inbox)
     * @param windowBytes      bytes of those messages, at most
     * @param heldMessages     live messages held for a session while it reads its inbox, past which
     *                         they are stored behind what it reads
     * @param pageSize         inbox messages read at once
     * @param pendingPerOrigin messages of one client routed and not yet resolved, past which the
     *                         server stops reading from it until some are
     * @param relayTimeout     how long a message relayed to another node waits for its answer before
     *                         it is stored in the recipient's inbox
     * @param maxTextLength    the most characters in a message
     * @param inboxMessages    the most messages one inbox holds; past it, messages to that user are
     *                         refused with a notice to the sender
     * @param inboxBytes       the most bytes one inbox holds
     * @param inboxTtl         how long a message waits in an inbox
     * @param messagesPerSecond messages (sent or scheduled) one user may send per second, on average,
     *                         per node; past it (and the burst) a request is refused with a
     *                         {@code RATE_LIMITED} error saying when to try again
     * @param messageBurst     messages one user may send at once above that rate
     * @param loginTimeout     a connection not logged in this long after it was accepted is closed,
     *                         whatever it sends (traffic does not extend it)
     * @param maxLoginFrameSize the longest frame accepted before login (a login needs a few hundred
     *                         bytes); {@code max-frame-size} applies after it
     * @param connectionsPerAddress open connections from one IP address, at most
     * @param unauthenticatedPerAddress connections from one IP address not yet logged in, at most
     * @param maxConnections   logged-in connections on this node, at most; a login past them is told
     *                         to go to another node ({@code GoAway}). 0 (the default): the process's
     *                         open-file cap less 5 % (at least 256), so the node never runs out of
     *                         sockets to say so
     */
    public record Limits(@DefaultValue("10000") int windowMessages, @DefaultValue("4MB") DataSize windowBytes,
            @DefaultValue("1000") int heldMessages, @DefaultValue("200") int pageSize,
            @DefaultValue("10000") int pendingPerOrigin, @DefaultValue("10s") Duration relayTimeout,
            @DefaultValue("4000") int maxTextLength, @DefaultValue("100000") int inboxMessages,
            @DefaultValue("64MB") DataSize inboxBytes, @DefaultValue("30d") Duration inboxTtl,
            @DefaultValue("100") int messagesPerSecond, @DefaultValue("500") int messageBurst,
            @DefaultValue("10s") Duration loginTimeout, @DefaultValue("1KB") DataSize maxLoginFrameSize,
            @DefaultValue("200") int connectionsPerAddress, @DefaultValue("20") int unauthenticatedPerAddress,
            @DefaultValue("0") int maxConnections) {
        public Limits {
            atLeast(messagesPerSecond, 1, "cim.server.limits.messages-per-second");
            atLeast(messageBurst, 1, "cim.server.limits.message-burst");
            requirePositive(loginTimeout, "cim.server.limits.login-timeout");
            atLeast(maxLoginFrameSize.toBytes(), 256, "cim.server.limits.max-login-frame-size");
            atLeast(connectionsPerAddress, 1, "cim.server.limits.connections-per-address");
            atLeast(unauthenticatedPerAddress, 1, "cim.server.limits.unauthenticated-per-address");
            atLeast(maxConnections, 0, "cim.server.limits.max-connections");
            atLeast(windowMessages, 2, "cim.server.limits.window-messages");
            atLeast(heldMessages, 1, "cim.server.limits.held-messages");
            atLeast(pageSize, 1, "cim.server.limits.page-size");
            atLeast(pendingPerOrigin, 1, "cim.server.limits.pending-per-origin");
            atLeast(inboxMessages, 1, "cim.server.limits.inbox-messages");
            requirePositive(relayTimeout, "cim.server.limits.relay-timeout");
            requirePositive(inboxTtl, "cim.server.limits.inbox-ttl");
            if (maxTextLength < 1 || maxTextLength > ChatRules.MAX_TEXT_LENGTH) {
                throw new IllegalArgumentException("cim.server.limits.max-text-length: " + maxTextLength
                        + " (expected: 1 to " + ChatRules.MAX_TEXT_LENGTH + ")");
            }
        }
    }

    /**
     * Groups ({@code #name}): a message to one is kept once, in the group's log, and reaches every
     * member.
     *
     * @param maxMembers       the most members a group may have
     * @param maxGroupsPerUser the most groups one user may be in
     */
    public record Groups(@DefaultValue("1000") int maxMembers, @DefaultValue("100") int maxGroupsPerUser) {
        public Groups {
            atLeast(maxMembers, 2, "cim.server.groups.max-members");
            atLeast(maxGroupsPerUser, 1, "cim.server.groups.max-groups-per-user");
        }
    }

    /**
     * What is kept of conversations: every private conversation and group keeps its messages, in
     * order, for the user to read back and search. A group's log is also where a member who was away
     * gets what they missed, so it is kept at least as long as an inbox keeps a message
     * ({@code limits.inbox-ttl}), even with no history.
     *
     * @param retention   how long a message is kept in its conversation's history; 0 keeps no history
     *                    of private conversations
     * @param maxMessages the most messages one conversation keeps (the oldest go first)
     */
    public record History(@DefaultValue("30d") Duration retention, @DefaultValue("1000000") long maxMessages) {
        public History {
            if (retention == null || retention.isNegative()) {
                throw new IllegalArgumentException("cim.server.history.retention: " + retention
                        + " (expected: >= 0; 0 keeps no history)");
            }
            atLeast(maxMessages, 1, "cim.server.history.max-messages");
        }
    }

    /**
     * The web port: the chat page at {@code /}, and its WebSocket at {@code /ws}, speaking the same
     * protocol through the same core as the chat port, with its TLS ({@code cim.server.tls.*}), its
     * limits and its plaintext rule (off loopback, TLS or {@code cim.server.tls.allow-plaintext}).
     *
     * @param enabled        false to open no web port
     * @param host           the address to listen on; empty for {@code cim.server.host}
     * @param port           the port; 0 picks a free one (logged at start)
     * @param allowedOrigins origins besides the page's own that may open the WebSocket (pages served
     *                       elsewhere: {@code https://chat.example.com}); empty for none
     */
    public record Web(@DefaultValue("true") boolean enabled, @DefaultValue("") String host,
            @DefaultValue("8080") int port, @DefaultValue List<String> allowedOrigins) {
        public Web {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("cim.server.web.port: " + port + " (expected: 0 to 65535)");
            }
            for (String origin : allowedOrigins) {
                if (!origin.matches("https?://[^/\\s]+")) {
                    throw new IllegalArgumentException("cim.server.web.allowed-origins: '" + origin
                            + "' (expected: scheme and host, e.g. https://chat.example.com)");
                }
            }
        }
    }

    /**
     * Scheduled messages.
     *
     * @param maxDelay     the longest delay accepted
     * @param maxPerUser   the most scheduled messages one user may have
     * @param window       how far ahead a node holds scheduled messages on its delay wheel; the rest
     *                     wait in Redis only (memory does not grow with the horizon)
     * @param scanInterval how often a node reads Redis for messages coming into its window (and for
     *                     messages a dead node claimed and did not send)
     * @param releaseGrace how long a node waits, once a message is due, for its online sender's client
     *                     to send it, before sending it itself
     * @param lease        how long a node's claim on a message it is sending lasts; a node that dies
     *                     while sending leaves the message to another after this
     * @param buckets      how many buckets the messages are spread over in Redis
     * @param recordKeep   how long the record of a user's scheduled messages that were sent, failed
     *                     or dropped is kept after its newest entry ({@code :sent})
     * @param recordSize   the most entries kept in a user's record, the newest
     */
    public record Delays(@DefaultValue("400d") Duration maxDelay, @DefaultValue("1000") int maxPerUser,
            @DefaultValue("1h") Duration window, @DefaultValue("5s") Duration scanInterval,
            @DefaultValue("2s") Duration releaseGrace, @DefaultValue("60s") Duration lease,
            @DefaultValue("256") int buckets, @DefaultValue("30d") Duration recordKeep,
            @DefaultValue("1000") int recordSize) {
        public Delays {
            requirePositive(maxDelay, "cim.server.delays.max-delay");
            atLeast(maxPerUser, 1, "cim.server.delays.max-per-user");
            requirePositive(window, "cim.server.delays.window");
            requirePositive(scanInterval, "cim.server.delays.scan-interval");
            requirePositive(releaseGrace, "cim.server.delays.release-grace");
            requirePositive(lease, "cim.server.delays.lease");
            requirePositive(recordKeep, "cim.server.delays.record-keep");
            atLeast(recordSize, 1, "cim.server.delays.record-size");
            if (scanInterval.compareTo(window) >= 0) {
                throw new IllegalArgumentException("cim.server.delays.scan-interval: " + scanInterval
                        + " (expected: < cim.server.delays.window = " + window + ")");
            }
            if (buckets < 1 || buckets > 16384) {
                throw new IllegalArgumentException("cim.server.delays.buckets: " + buckets + " (expected: 1 to 16384)");
            }
        }
    }

    /**
     * How a stopping node hands its clients over: it stops accepting, tells every client to go
     * elsewhere ({@code GoAway}, with the other live nodes) and to spread its reconnection over
     * {@code spread}, waits up to {@code grace} for them to leave, then closes the rest; whatever a
     * session had not acknowledged waits in the user's inbox.
     *
     * @param grace  how long clients have to leave
     * @param spread the window the clients spread their reconnections over
     */
    public record Shutdown(@DefaultValue("5s") Duration grace, @DefaultValue("5s") Duration spread) {
        public Shutdown {
            requirePositive(grace, "cim.server.shutdown.grace");
            requirePositive(spread, "cim.server.shutdown.spread");
        }
    }

    /**
     * TLS on the chat port. With a certificate and its private key the port speaks TLS only (1.3 or
     * 1.2): a client that starts in plaintext gets one plaintext error frame saying so, and is
     * closed. Without them the port speaks plaintext, which the server accepts on a loopback
     * address only ({@code 127.0.0.0/8}, {@code ::1} or {@code localhost}) unless
     * {@code allowPlaintext}: elsewhere passwords and messages would cross the network in clear. The
     * TLS handshake counts against the login deadline.
     *
     * @param certificate        PEM file of the server's certificate, followed by its chain if it
     *                           has one; set with {@code privateKey}, it turns TLS on
     * @param privateKey         PEM file of the certificate's private key, PKCS#8 ({@code BEGIN
     *                           PRIVATE KEY} or {@code BEGIN ENCRYPTED PRIVATE KEY}, as
     *                           {@code openssl req -newkey} writes it)
     * @param privateKeyPassword the password of an encrypted private key; empty for none
     * @param provider           {@code auto} (OpenSSL, that is BoringSSL from netty-tcnative, where
     *                           it loads, else the JDK's), {@code openssl} (fail at start if it does
     *                           not load) or {@code jdk}
     * @param allowPlaintext     true to listen without TLS on an address that is not loopback
     */
    public record Tls(Path certificate, Path privateKey, String privateKeyPassword,
            @DefaultValue("auto") TlsProvider provider, @DefaultValue("false") boolean allowPlaintext) {
        public Tls {
            if ((certificate == null) != (privateKey == null)) {
                throw new IllegalArgumentException("cim.server.tls.certificate: " + certificate
                        + ", cim.server.tls.private-key: " + privateKey
                        + " (expected: both, for TLS, or neither, for plaintext)");
            }
            if (privateKeyPassword != null && !privateKeyPassword.isEmpty() && privateKey == null) {
                throw new IllegalArgumentException("cim.server.tls.private-key-password is set but there is no "
                        + "cim.server.tls.private-key (expected: the key and its certificate)");
            }
        }

        /** True when the chat port speaks TLS. */
        public boolean enabled() {
            return certificate != null;
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
        atLeast(workerThreads, 1, "cim.server.worker-threads");
        atLeast(lanes, 1, "cim.server.lanes");
        if (nodeId == null || nodeId.isBlank()) {
            byte[] random = new byte[4];
            ThreadLocalRandom.current().nextBytes(random);
            nodeId = "node-" + HexFormat.of().formatHex(random);
        } else if (!nodeId.matches("[A-Za-z0-9_.-]{1,64}")) {
            // It becomes part of Redis keys and channels: no separators, no spaces.
            throw new IllegalArgumentException("cim.server.node-id: '" + nodeId
                    + "' (expected: 1 to 64 of A-Z a-z 0-9 _ - .)");
        }
    }

    /** The I/O threads to start: {@link #ioThreads()}, or one per core when that is 0. */
    public int effectiveIoThreads() {
        return NettyTransport.serverIoThreads(ioThreads);
    }

    /**
     * How often clients are asked to ping: half the idle timeout, so a ping may come a whole interval
     * late (over TCP a ping is delayed, never lost alone). Pings are most of a node's work at rest:
     * 19,000 clients pinging every 45 s (the default) are 422 wake-ups a second.
     */
    public Duration heartbeatInterval() {
        return idleTimeout.dividedBy(2);
    }

    /** The embedded Redis's data directory: {@link #dataDir()}, or {@code ~/.cim/data/redis-<port>}. */
    public Path redisDataDir(int redisPort) {
        return dataDir != null ? dataDir
                : Path.of(System.getProperty("user.home"), ".cim", "data", "redis-" + redisPort);
    }

    private static void requirePositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + ": " + d + " (expected: > 0)");
        }
    }

    private static void atLeast(long value, long min, String name) {
        if (value < min) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= " + min + ")");
        }
    }
}
