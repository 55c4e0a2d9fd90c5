package dev.cim.server;

import dev.cim.common.wheel.DelayScheduler;
import dev.cim.server.account.AccountService;
import dev.cim.server.chat.ChatCore;
import dev.cim.server.chat.ChatService;
import dev.cim.server.chat.Limits;
import dev.cim.server.chat.group.GroupSettings;
import dev.cim.server.chat.history.HistorySettings;
import dev.cim.server.chat.platform.Platform;
import dev.cim.server.chat.platform.UserLanes;
import dev.cim.server.chat.schedule.ScheduleSettings;
import dev.cim.server.net.CimServer;
import dev.cim.server.net.ServerTls;
import dev.cim.server.node.NodeHeartbeat;
import dev.cim.server.redis.OwnRedisConnection;
import dev.cim.server.redis.RedisConversationLog;
import dev.cim.server.redis.RedisEvictionCheck;
import dev.cim.server.redis.RedisGroupStore;
import dev.cim.server.redis.RedisInboxStore;
import dev.cim.server.redis.RedisNodeBus;
import dev.cim.server.redis.RedisOriginStore;
import dev.cim.server.redis.RedisPresenceStore;
import dev.cim.server.redis.RedisRoundTrips;
import dev.cim.server.redis.RedisScheduledStore;
import dev.cim.server.redis.ReplicaAcks;
import dev.cim.server.store.PresenceStore;
import dev.cim.server.store.ScheduledStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Wires the server: the Redis stores behind the chat core's ports, the core, the TCP server, and the
 * node heartbeat, on top of the {@link AccountConfiguration accounts}. Every collaborator is passed
 * through a constructor; nothing is looked up statically. Not in the {@link AccountTool}'s context,
 * which manages accounts without serving.
 */
@Configuration(proxyBeanMethods = false)
@Profile("!" + AccountTool.PROFILE)
class CimServerConfiguration {

    /** How long an origin watermark is kept in Redis after its last write. */
    private static final Duration ORIGIN_RETENTION = Duration.ofDays(30);

    @Bean
    RedisEvictionCheck cimRedisEvictionCheck(StringRedisTemplate redis) {
        return new RedisEvictionCheck(redis);
    }

    /** The heartbeat's Redis connection, apart from the traffic's. */
    @Bean(destroyMethod = "close")
    OwnRedisConnection cimLivenessConnection(RedisConnectionFactory connections, RedisRoundTrips roundTrips) {
        return new OwnRedisConnection(connections, roundTrips);
    }

    @Bean
    @ConditionalOnMissingBean
    PresenceStore presenceStore(StringRedisTemplate redis, OwnRedisConnection cimLivenessConnection,
            CimServerProperties properties, Clock clock) {
        return new RedisPresenceStore(redis, cimLivenessConnection.template(), properties.nodeId(),
                properties.presence().ttl(), properties.presence().nodeTtl(), clock::millis);
    }

    /**
     * Messages from other nodes. Delivery only hands them to the core's receiver thread, so it runs
     * on the Redis client's thread ({@link SyncTaskExecutor}), which keeps them in order.
     */
    @Bean
    RedisMessageListenerContainer cimBusListeners(RedisConnectionFactory connections) {
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        container.setConnectionFactory(connections);
        container.setTaskExecutor(new SyncTaskExecutor());
        return container;
    }

    @Bean(destroyMethod = "close")
    RedisNodeBus nodeBus(RedisTemplate<String, byte[]> cimBytesRedisTemplate, RedisMessageListenerContainer cimBusListeners,
            CimServerProperties properties) {
        return new RedisNodeBus(cimBytesRedisTemplate, cimBusListeners, properties.nodeId());
    }

    /** Password hashing for logins, off the I/O threads. */
    @Bean(destroyMethod = "shutdown")
    ExecutorService cimLoginWorkers(CimServerProperties properties) {
        AtomicInteger index = new AtomicInteger();
        return Executors.newFixedThreadPool(properties.workerThreads(), r -> {
            Thread t = new Thread(r, "cim-login-" + index.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Bean(destroyMethod = "close")
    ChatCore chatCore(CimServerProperties properties, AccountService accounts, PresenceStore presence,
            RedisTemplate<String, byte[]> cimBytesRedisTemplate, StringRedisTemplate redis, RedisNodeBus bus,
            DelayScheduler wheel, Clock clock, ExecutorService cimLoginWorkers, MeterRegistry meters) {
        CimServerProperties.Limits l = properties.limits();
        CimServerProperties.Delays d = properties.delays();
        ReplicaAcks acks = new ReplicaAcks(cimBytesRedisTemplate, properties.redis().replicasToAck(),
                properties.redis().replicasAckTimeout());
        ChatCore.Stores stores = new ChatCore.Stores(accounts,
                new RedisInboxStore(cimBytesRedisTemplate, clock::millis, l.inboxMessages(), l.inboxBytes().toBytes(),
                        l.inboxTtl(), acks),
                presence, new RedisOriginStore(redis, ORIGIN_RETENTION),
                new RedisScheduledStore(cimBytesRedisTemplate, d.buckets(), acks), bus,
                new RedisGroupStore(cimBytesRedisTemplate, acks), new RedisConversationLog(cimBytesRedisTemplate));
        Duration groupLogs = properties.history().retention().compareTo(l.inboxTtl()) > 0
                ? properties.history().retention() : l.inboxTtl();
        ChatCore.Settings settings = new ChatCore.Settings(
                new Limits(l.windowMessages(), l.windowBytes().toBytes(), l.heldMessages(), l.pageSize(),
                        l.pendingPerOrigin(), l.relayTimeout(), l.maxTextLength(), l.messagesPerSecond(),
                        l.messageBurst()),
                new ScheduleSettings(d.maxDelay(), d.maxPerUser(), d.window(), d.scanInterval(), d.releaseGrace(),
                        d.lease(), new ScheduledStore.Keep(d.recordKeep(), d.recordSize())),
                new GroupSettings(properties.groups().maxMembers(), properties.groups().maxGroupsPerUser(), groupLogs,
                        properties.history().maxMessages()),
                new HistorySettings(properties.history().retention(), properties.history().maxMessages()),
                properties.heartbeatInterval(), Duration.ofMinutes(10), Duration.ofSeconds(1));
        Platform platform = new Platform(new UserLanes(properties.lanes()), wheel, clock, System::nanoTime, meters);
        return new ChatCore(stores, settings, platform, cimLoginWorkers);
    }

    /**
     * Closes the chat core between the server and the Redis connections: Spring stops higher phases
     * first, so the lanes finish the store work of the sessions the server closed (and the origins
     * write their watermarks) while Redis still answers, rather than after its connections stopped.
     */
    @Bean
    SmartLifecycle chatCoreStop(ChatCore core) {
        return new SmartLifecycle() {
            private volatile boolean running;

            @Override
            public void start() {
                running = true;
            }

            @Override
            public void stop() {
                core.close();
                running = false;
            }

            @Override
            public boolean isRunning() {
                return running;
            }

            @Override
            public int getPhase() {
                return (CimServer.PHASE + NodeHeartbeat.PHASE) / 2;
            }
        };
    }

    @Bean
    ChatService chatService(ChatCore core) {
        return core.service();
    }

    /** The chat port; its TLS context is built here, once, and a mistake in it stops the start. */
    @Bean
    CimServer cimServer(CimServerProperties properties, ChatCore core, PresenceStore presence) {
        CimServerProperties.Limits l = properties.limits();
        CimServerProperties.Tls tls = properties.tls();
        ServerTls serverTls = tls.enabled()
                ? ServerTls.load(tls.certificate(), tls.privateKey(), tls.privateKeyPassword(), tls.provider())
                : null;
        return new CimServer(new CimServer.Settings(properties.host(), properties.port(), properties.effectiveIoThreads(),
                properties.epoll(), (int) properties.maxFrameSize().toBytes(), (int) l.maxLoginFrameSize().toBytes(),
                properties.idleTimeout(), l.loginTimeout(), l.connectionsPerAddress(), l.unauthenticatedPerAddress(),
                l.maxConnections(), properties.shutdown().grace(), properties.shutdown().spread(), serverTls,
                tls.allowPlaintext(),
                new CimServer.Web(properties.web().enabled(), properties.web().host().isEmpty() ? properties.host()
                        : properties.web().host(), properties.web().port(), properties.web().allowedOrigins())),
                core.service(), presence, core::otherNodesWithRoom);
    }

    /** Connection gauges; the server is looked up at each scrape, so binding does not create it early. */
    @Bean
    MeterBinder cimConnectionMeters(ObjectProvider<CimServer> server) {
        return registry -> {
            Gauge.builder("cim.connections", server, s -> s.getObject().connections())
                    .description("open client connections").register(registry);
            Gauge.builder("cim.connections.logged-in", server, s -> s.getObject().loggedInConnections())
                    .description("logged-in client connections, as cim.server.limits.max-connections counts them")
                    .register(registry);
            Gauge.builder("cim.connections.unauthenticated", server, s -> s.getObject().unauthenticatedConnections())
                    .description("client connections not logged in yet").register(registry);
        };
    }

    /**
     * Takes the server through a provider, asked only at each refresh: a plain dependency would make
     * Spring start the server before the heartbeat, but the node must be registered (and Redis
     * proven reachable) before connections are accepted.
     */
    @Bean
    NodeHeartbeat nodeHeartbeat(PresenceStore presence, ChatCore core, CimServerProperties properties,
            ObjectProvider<CimServer> server) {
        return new NodeHeartbeat(presence, core, properties.presence().heartbeat(),
                properties.presence().refreshInterval(), () -> server.getObject().address(),
                () -> server.getObject().full());
    }
}
