package dev.cim.server.store;

import java.util.Optional;

/** Where accounts are kept: a user name and the hash of its password. */
public interface AccountStore {

    /** The stored password hash of {@code user}, or empty when there is no such account. */
    Optional<String> passwordHash(String user);

    /**
     * Creates the account unless it exists, atomically, so two first logins racing for one name
     * cannot both win.
     *
     * @return true if this call created it
     */
    boolean createIfAbsent(String user, String passwordHash);

    /** True when {@code user} has an account. */
    boolean exists(String user);
}
