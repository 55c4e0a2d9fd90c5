package dev.cim.server.store;

import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where accounts are kept: a user name, the hash of its password, the name's look-alike claim, and
 * the hashes of the account's session tokens.
 */
public interface AccountStore {

    /** What became of {@link #create}. */
    enum Creation {
        /** The account was created by this call. */
        CREATED,
        /** The account exists already (made earlier, or by a racing first login). */
        EXISTS,
        /** Another account's name looks like this one (the same skeleton): nothing was created. */
        LOOKS_TAKEN
    }

    /** The stored password hash of {@code user}, or empty when there is no such account. */
    Optional<String> passwordHash(String user);

    /**
     * Creates the account unless it exists, atomically (two first logins racing for one name cannot
     * both win), and only if no other account claimed the same {@code skeleton}.
     */
    Creation create(String user, String skeleton, String passwordHash);

    /** Replaces the password hash of an existing account; false (and nothing stored) when there is none. */
    boolean replacePasswordHash(String user, String passwordHash);

    /** The name of the account that claimed {@code skeleton}, or empty. */
    Optional<String> ownerOf(String skeleton);

    /** True when {@code user} has an account. */
    boolean exists(String user);

    /** Those of {@code users} that have an account, asked in one round trip. */
    default Set<String> existing(Collection<String> users) {
        Set<String> found = new HashSet<>();
        for (String user : users) {
            if (exists(user)) {
                found.add(user);
            }
        }
        return found;
    }

    /**
     * Keeps a session token's hash until {@code expiresAt}; of the user's tokens, only the
     * {@code maxTokens} that expire last are kept, so one user cannot grow the store without bound.
     */
    void addToken(String user, String tokenHash, Instant expiresAt, int maxTokens);

    /**
     * Uses a session token: true, and its expiry moved to {@code newExpiry}, when the user has it and
     * it has not expired at {@code now}; false otherwise (and an expired one is removed).
     */
    boolean useToken(String user, String tokenHash, Instant now, Instant newExpiry);

    /** Revokes every session token of {@code user}; returns how many there were. */
    long revokeTokens(String user);

    /** Revokes the session token of {@code user} whose hash is {@code tokenHash}; false when it had none such. */
    boolean revokeToken(String user, String tokenHash);

    /**
     * The time zone each of {@code users} set ({@code AccountSettings.zone}), for those who set one
     * and have an account.
     */
    Map<String, String> zones(Collection<String> users);

    /** The time zone {@code user} set, or empty. */
    default Optional<String> zone(String user) {
        return Optional.ofNullable(zones(List.of(user)).get(user));
    }

    /** Sets the time zone of {@code user}, an existing account (an IANA zone id, checked by the caller). */
    void setZone(String user, String zone);
}
