package dev.cim.server.account;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * A slow password encoder (BCrypt) that remembers, for a while, the passwords it has found to match:
 * a user logging in again with the same password (or for the first time since the account was made
 * here) is checked in microseconds instead of the tens of milliseconds the hash is made to cost, so a node whose clients all come back at once (a restart,
 * a network cut) logs them in at the rate of its network, not of its hashing. Elasticsearch's
 * realms cache credentials the same way.
 *
 * <p>What is remembered is keyed by the stored hash, so a new password (a new hash, on any node)
 * is never matched from here. The password itself is not kept: only an HMAC-SHA256 of it under a
 * key drawn at random when the server starts and never written anywhere. A wrong password is never
 * remembered and always costs the full hash, so guessing is as slow as before; what the cache gives
 * away is only to someone who can read the server's memory, who could then test guesses at the
 * speed of HMAC rather than BCrypt for the accounts logged in within {@code ttl}. At most
 * {@code size} hashes are held (about 200 bytes each), each for {@code ttl} after it matched.
 */
public final class RememberedPasswords implements PasswordEncoder {

    private final PasswordEncoder slow;
    private final Cache<String, byte[]> matched;
    private final SecretKeySpec key;

    /**
     * @param slow      the encoder that makes and checks the stored hashes
     * @param ttl       how long a match is remembered, more than zero
     * @param size      the most matches remembered, at least 1
     * @param nanoTime  the clock the ttl is counted on
     */
    public RememberedPasswords(PasswordEncoder slow, Duration ttl, long size, LongSupplier nanoTime) {
        if (ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException("remembered password ttl: " + ttl + " (expected: > 0)");
        }
        if (size < 1) {
            throw new IllegalArgumentException("remembered passwords: " + size + " (expected: >= 1)");
        }
        this.slow = slow;
        Ticker ticker = nanoTime::getAsLong;
        this.matched = Caffeine.newBuilder().maximumSize(size).expireAfterWrite(ttl).ticker(ticker).build();
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        this.key = new SecretKeySpec(secret, "HmacSHA256");
    }

    /** Makes the hash of a new password, and remembers that the password matches it. */
    @Override
    public String encode(CharSequence rawPassword) {
        String encoded = slow.encode(rawPassword);
        if (rawPassword != null) {
            matched.put(encoded, mac(rawPassword));
        }
        return encoded;
    }

    @Override
    public boolean matches(CharSequence rawPassword, String encodedPassword) {
        if (rawPassword == null || encodedPassword == null) {
            return slow.matches(rawPassword, encodedPassword);
        }
        byte[] mac = mac(rawPassword);
        byte[] remembered = matched.getIfPresent(encodedPassword);
        if (remembered != null && MessageDigest.isEqual(remembered, mac)) {
            return true;
        }
        boolean matches = slow.matches(rawPassword, encodedPassword);
        if (matches) {
            matched.put(encodedPassword, mac);
        }
        return matches;
    }

    @Override
    public boolean upgradeEncoding(String encodedPassword) {
        return slow.upgradeEncoding(encodedPassword);
    }

    /** How many matches are remembered now. */
    long size() {
        matched.cleanUp();
        return matched.estimatedSize();
    }

    private byte[] mac(CharSequence password) {
        try {
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(key);
            return hmac.doFinal(password.toString().getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
