package dev.cim.server;

import dev.cim.server.account.AccountService;
import dev.cim.server.account.AccountStore;
import dev.cim.server.account.RedisAccountStore;
import dev.cim.server.net.ChatServices;
import dev.cim.server.net.CimServer;
import dev.cim.server.presence.PresenceHeartbeat;
import dev.cim.server.presence.PresenceStore;
import dev.cim.server.presence.RedisPresenceStore;
import dev.cim.server.routing.ChatRouter;
import dev.cim.server.routing.MessageStamper;
import dev.cim.server.routing.OfflineInbox;
import dev.cim.server.routing.RedisOfflineInbox;
import dev.cim.server.routing.RedisRemoteNodes;
import dev.cim.server.routing.RelayReceiver;
import dev.cim.server.routing.RemoteNodes;
import dev.cim.server.session.LocalSessionRegistry;
import dev.cim.server.session.SessionManager;
import dev.cim.server.session.SessionRegistry;
import java.time.Clock;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Wires the server: Redis-backed stores, the in-memory session registry, routing and relaying
 * between nodes, and the two lifecycle beans ({@link PresenceHeartbeat}, then {@link CimServer}). Every collaborator is passed
 * through a constructor; nothing is looked up statically.
 */
@Configuration(proxyBeanMethods = false)
class CimServerConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    @ConditionalOnMissingBean
    PasswordEncoder passwordEncoder(CimServerProperties properties) {
        return new BCryptPasswordEncoder(properties.accounts().bcryptStrength());
    }

    /** Byte values for the offline inboxes, which hold serialized protos. */
    @Bean
    RedisTemplate<String, byte[]> cimBytesRedisTemplate(RedisConnectionFactory connections) {
        RedisTemplate<String, byte[]> template = new RedisTemplate<>();
        template.setConnectionFactory(connections);
        template.setKeySerializer(RedisSerializer.string());
        template.setValueSerializer(RedisSerializer.byteArray());
        return template;
    }

    @Bean
    @ConditionalOnMissingBean
    AccountStore accountStore(StringRedisTemplate redis) {
        return new RedisAccountStore(redis);
    }

    @Bean
    AccountService accountService(AccountStore store, PasswordEncoder encoder) {
        return new AccountService(store, encoder);
    }

    @Bean
    @ConditionalOnMissingBean
    SessionRegistry sessionRegistry() {
        return new LocalSessionRegistry();
    }

    @Bean
    @ConditionalOnMissingBean
    PresenceStore presenceStore(StringRedisTemplate redis, CimServerProperties properties) {
        return new RedisPresenceStore(redis, properties.nodeId(), properties.presence().ttl());
    }

    @Bean
    SessionManager sessionManager(SessionRegistry registry, PresenceStore presence) {
        return new SessionManager(registry, presence);
    }

    @Bean
    @ConditionalOnMissingBean
    OfflineInbox offlineInbox(RedisTemplate<String, byte[]> cimBytesRedisTemplate) {
        return new RedisOfflineInbox(cimBytesRedisTemplate);
    }

    @Bean
    MessageStamper messageStamper(Clock clock, CimServerProperties properties) {
        return new MessageStamper(clock, properties.nodeId());
    }

    @Bean
    RedisRemoteNodes remoteNodes(RedisTemplate<String, byte[]> cimBytesRedisTemplate, PresenceStore presence) {
        return new RedisRemoteNodes(cimBytesRedisTemplate, presence);
    }

    @Bean
    ChatRouter chatRouter(SessionRegistry registry, AccountService accounts, OfflineInbox inbox, RemoteNodes remote) {
        return new ChatRouter(registry, accounts::exists, inbox, remote);
    }

    /**
     * Receives messages other nodes relay to this one. Delivery only writes to channels, so it runs
     * on the Redis client's thread ({@link SyncTaskExecutor}) rather than a thread per message, and
     * relayed messages stay in order.
     */
    @Bean
    RedisMessageListenerContainer relayListenerContainer(RedisConnectionFactory connections,
            SessionRegistry registry, CimServerProperties properties) {
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        container.setConnectionFactory(connections);
        container.setTaskExecutor(new SyncTaskExecutor());
        RelayReceiver receiver = new RelayReceiver(registry, properties.nodeId());
        container.addMessageListener(receiver, List.of(new ChannelTopic(RedisRemoteNodes.channelOf(properties.nodeId())),
                new ChannelTopic(RedisRemoteNodes.ALL)));
        return container;
    }

    @Bean
    ChatServices chatServices(CimServerProperties properties, AccountService accounts, SessionManager sessions,
            OfflineInbox inbox, MessageStamper stamper, ChatRouter router, PresenceStore presence, Clock clock) {
        return new ChatServices(properties, accounts, sessions, inbox, stamper, router, presence, clock);
    }

    @Bean
    CimServer cimServer(ChatServices services) {
        return new CimServer(services);
    }

    /**
     * Takes the server through a provider, asked only at each refresh: a plain dependency would make
     * Spring start the server before the heartbeat, but the node must be registered (and Redis
     * proven reachable) before connections are accepted.
     */
    @Bean
    PresenceHeartbeat presenceHeartbeat(PresenceStore presence, SessionRegistry registry,
            CimServerProperties properties, ObjectProvider<CimServer> server, RedisRemoteNodes remote) {
        return new PresenceHeartbeat(presence, registry, properties.presence().refreshInterval(),
                () -> server.getObject().address(), remote::updatePeers);
    }
}
