package dev.cim.server.account;

import dev.cim.server.store.AccountStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Session tokens: what a client logs in with after its first password login, so that reconnecting
 * costs the server no password hashing and the client need not keep the password.
 *
 * <p>A token is 32 random bytes (URL-safe Base64), given to the client once; the store keeps only
 * its SHA-256 (a fast hash is enough for a secret with 256 bits of entropy: there is nothing to
 * brute-force). A token expires {@code ttl} after its last use, each user keeps at most
 * {@code perUser} of them (the ones used last), and {@link #revokeAll} ends them all.
 */
public final class SessionTokens {

    private static final int TOKEN_BYTES = 32;

    private final AccountStore store;
    private final Duration ttl;
    private final int perUser;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public SessionTokens(AccountStore store, Duration ttl, int perUser, Clock clock) {
        if (ttl.isNegative() || ttl.isZero() || perUser < 1) {
            throw new IllegalArgumentException("session tokens: ttl " + ttl + ", per user " + perUser
                    + " (expected: ttl > 0, per user >= 1)");
        }
        this.store = store;
        this.ttl = ttl;
        this.perUser = perUser;
        this.clock = clock;
    }

    /** A new token for {@code user}, valid for the ttl from now. */
    public String issue(String user) {
        byte[] bytes = new byte[TOKEN_BYTES];
        random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        store.addToken(user, hash(token), clock.instant().plus(ttl), perUser);
        return token;
    }

    /** True when {@code token} is a live token of {@code user}; its expiry moves to the ttl from now. */
    public boolean use(String user, String token) {
        if (token.length() > 2 * TOKEN_BYTES) {
            return false; // not one of ours; not worth hashing
        }
        Instant now = clock.instant();
        return store.useToken(user, hash(token), now, now.plus(ttl));
    }

    /** Ends every session token of {@code user}; returns how many there were. */
    public long revokeAll(String user) {
        return store.revokeTokens(user);
    }

    /** Ends {@code token} of {@code user} (a logout); false when it was not one of theirs. */
    public boolean revoke(String user, String token) {
        return token.length() <= 2 * TOKEN_BYTES && store.revokeToken(user, hash(token));
    }

    private static String hash(String token) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha256.digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
