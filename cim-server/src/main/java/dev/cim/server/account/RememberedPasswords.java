package dev.cim.server.account;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * A slow password encoder (BCrypt) that remembers, for a while, the passwords it has found to match:
 * a user logging in again with the same password (or for the first time since the account was made
 * here) is checked in microseconds instead of the tens of milliseconds the hash is made to cost, so
 * a node whose clients all come back at once (a restart, a network cut) logs them in at the rate of
 * its store, not of its hashing. Elasticsearch's realms cache credentials the same way.
 *
 * <p>What is remembered is an HMAC-SHA256 of the stored hash and the password together, under a key
 * drawn at random when the server starts and never written anywhere: a new password (a new hash, on
 * any node) is never matched from here, and the password itself is not kept. A wrong password is
 * never remembered and always costs the full hash, so guessing is as slow as before; what this
 * gives away is only to someone who can read the server's memory, who could then test guesses at
 * the speed of HMAC rather than BCrypt for the accounts remembered.
 *
 * <p>A fixed table, allocated once: each slot four {@code long}s (192 bits of the HMAC, until
 * when), 32 bytes, so remembering a user costs the heap nothing per login (a cache of objects
 * measured 0.25 KB per logged-in user). It is lossy: two hashes sharing a slot push each other out,
 * and the one pushed out is hashed again at its next login. Slots are written without a lock; a
 * slot read while another login writes it holds parts of both, whose HMAC matches neither, so the
 * worst a race costs is a BCrypt.
 */
public final class RememberedPasswords implements PasswordEncoder {

    private static final int LONGS = 4;

    private final PasswordEncoder slow;
    private final long ttlNanos;
    private final LongSupplier nanoTime;
    private final AtomicLongArray table;
    private final int mask;
    private final SecretKeySpec key;

    /**
     * @param slow     the encoder that makes and checks the stored hashes
     * @param ttl      how long a match is remembered, more than zero
     * @param size     how many accounts may be remembered at once, at least 1 (rounded up to a power
     *                 of two; 32 bytes each, allocated now)
     * @param nanoTime the clock the ttl is counted on
     */
    public RememberedPasswords(PasswordEncoder slow, Duration ttl, int size, LongSupplier nanoTime) {
        if (ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException("remembered password ttl: " + ttl + " (expected: > 0)");
        }
        if (size < 1 || size > 1 << 26) {
            throw new IllegalArgumentException("remembered passwords: " + size + " (expected: 1 to " + (1 << 26) + ")");
        }
        this.slow = slow;
        this.ttlNanos = ttl.toNanos();
        this.nanoTime = nanoTime;
        int slots = size == 1 ? 1 : Integer.highestOneBit(size - 1) << 1;
        this.table = new AtomicLongArray(slots * LONGS);
        this.mask = slots - 1;
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        this.key = new SecretKeySpec(secret, "HmacSHA256");
    }

    /** Makes the hash of a new password, and remembers that the password matches it. */
    @Override
    public String encode(CharSequence rawPassword) {
        String encoded = slow.encode(rawPassword);
        if (rawPassword != null) {
            remember(encoded, mac(encoded, rawPassword));
        }
        return encoded;
    }

    @Override
    public boolean matches(CharSequence rawPassword, String encodedPassword) {
        if (rawPassword == null || encodedPassword == null) {
            return slow.matches(rawPassword, encodedPassword);
        }
        long[] mac = mac(encodedPassword, rawPassword);
        int at = slot(mac[0]);
        if (table.getOpaque(at) == mac[0] && table.getOpaque(at + 1) == mac[1] && table.getOpaque(at + 2) == mac[2]
                && nanoTime.getAsLong() - table.getOpaque(at + 3) < 0) {
            return true;
        }
        boolean matches = slow.matches(rawPassword, encodedPassword);
        if (matches) {
            remember(encodedPassword, mac);
        }
        return matches;
    }

    @Override
    public boolean upgradeEncoding(String encodedPassword) {
        return slow.upgradeEncoding(encodedPassword);
    }

    /** How many slots hold a match not yet expired. */
    int size() {
        long now = nanoTime.getAsLong();
        int live = 0;
        for (int at = 0; at < table.length(); at += LONGS) {
            if (table.get(at + 3) != 0 && now - table.get(at + 3) < 0) {
                live++;
            }
        }
        return live;
    }

    private void remember(String encoded, long[] mac) {
        int at = slot(mac[0]);
        table.setOpaque(at, mac[0]);
        table.setOpaque(at + 1, mac[1]);
        table.setOpaque(at + 2, mac[2]);
        table.setOpaque(at + 3, nanoTime.getAsLong() + ttlNanos);
    }

    /** The slot of a hash: by the HMAC's first long, which depends on the stored hash. */
    private int slot(long first) {
        return (int) (first & mask) * LONGS;
    }

    /**
     * 192 bits of HMAC-SHA256(stored hash, 0, password): the first long places it, all three must
     * match. The stored hash is in it, so a slot is only ever matched by its own account's password.
     */
    private long[] mac(String encoded, CharSequence password) {
        try {
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(key);
            hmac.update(encoded.getBytes(StandardCharsets.UTF_8));
            hmac.update((byte) 0);
            ByteBuffer digest = ByteBuffer.wrap(hmac.doFinal(password.toString().getBytes(StandardCharsets.UTF_8)));
            return new long[] {digest.getLong(), digest.getLong(), digest.getLong()};
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
