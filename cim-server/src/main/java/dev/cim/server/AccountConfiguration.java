package dev.cim.server;

import dev.cim.server.account.AccountService;
import dev.cim.server.account.LoginThrottle;
import dev.cim.server.account.RememberedPasswords;
import dev.cim.server.account.SessionTokens;
import dev.cim.server.redis.RedisAccountStore;
import dev.cim.server.redis.RedisAttemptCounters;
import dev.cim.server.redis.RedisFlushes;
import dev.cim.server.redis.RedisFull;
import dev.cim.server.redis.RedisRoundTrips;
import dev.cim.server.store.AccountStore;
import dev.cim.server.store.AttemptCounters;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Accounts and the Redis templates they are kept with: what both the serving server
 * ({@link CimServerConfiguration}) and the {@link AccountTool} need.
 */
@Configuration(proxyBeanMethods = false)
class AccountConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    @ConditionalOnMissingBean
    PasswordEncoder passwordEncoder(CimServerProperties properties) {
        CimServerProperties.Accounts accounts = properties.accounts();
        PasswordEncoder bcrypt = new BCryptPasswordEncoder(accounts.bcryptStrength());
        return accounts.rememberPasswords().isZero() ? bcrypt
                : new RememberedPasswords(bcrypt, accounts.rememberPasswords(), accounts.rememberedPasswords(),
                        System::nanoTime);
    }

    /** The commands written to a Redis connection together leave in one write ({@link RedisFlushes}). */
    @Bean
    RedisFlushes cimRedisFlushes() {
        return new RedisFlushes();
    }

    /** Round trips to Redis timed in the meter registry, if the program has one (the account tool has not). */
    @Bean
    RedisRoundTrips redisRoundTrips(ObjectProvider<MeterRegistry> meters) {
        MeterRegistry registry = meters.getIfAvailable();
        return registry == null ? RedisRoundTrips.untimed() : RedisRoundTrips.timedIn(registry);
    }

    /**
     * Byte values, for serialized protos. Like {@link #cimStringRedisTemplate}, it reports a Redis
     * full to its {@code maxmemory} as a {@code StoreFullException} ({@link RedisFull}) and times
     * each round trip.
     */
    @Bean
    RedisTemplate<String, byte[]> cimBytesRedisTemplate(RedisConnectionFactory connections, RedisRoundTrips roundTrips) {
        RedisTemplate<String, byte[]> template = new RedisFull.BytesTemplate(roundTrips);
        template.setConnectionFactory(connections);
        template.setKeySerializer(RedisSerializer.string());
        template.setValueSerializer(RedisSerializer.byteArray());
        template.setHashKeySerializer(RedisSerializer.string());
        template.setHashValueSerializer(RedisSerializer.byteArray());
        return template;
    }

    /** String keys and values; Spring Boot's own then steps aside. */
    @Bean
    StringRedisTemplate cimStringRedisTemplate(RedisConnectionFactory connections, RedisRoundTrips roundTrips) {
        return new RedisFull.StringTemplate(connections, roundTrips);
    }

    @Bean
    @ConditionalOnMissingBean
    AccountStore accountStore(StringRedisTemplate redis, RedisTemplate<String, byte[]> cimBytesRedisTemplate) {
        return new RedisAccountStore(redis, cimBytesRedisTemplate);
    }

    @Bean
    @ConditionalOnMissingBean
    AttemptCounters attemptCounters(RedisTemplate<String, byte[]> cimBytesRedisTemplate) {
        return new RedisAttemptCounters(cimBytesRedisTemplate);
    }

    @Bean
    AccountService accountService(AccountStore store, AttemptCounters attempts, PasswordEncoder encoder,
            CimServerProperties properties, Clock clock) {
        CimServerProperties.Accounts a = properties.accounts();
        return new AccountService(store, encoder,
                new SessionTokens(store, a.sessionTtl(), a.sessionsPerUser(), clock),
                new LoginThrottle(attempts, new LoginThrottle.Policy(a.freeFailures(), a.maxLoginDelay(),
                        a.lockAfterFailures(), a.lockDuration(), a.registrationsPerAddress(), a.registrationWindow()),
                        clock),
                new AccountService.Policy(a.registration() == CimServerProperties.Registration.OPEN,
                        a.minPasswordLength()));
    }
}
