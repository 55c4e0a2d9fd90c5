package dev.cim.server.account;

import dev.cim.common.protocol.UserNames;
import java.nio.charset.StandardCharsets;
import dev.cim.server.store.AccountStore;
import java.util.Optional;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Logs users in. The first login of a name creates its account with that password; later logins
 * must give the same password. Only a salted hash of the password is stored, made by the injected
 * {@link PasswordEncoder} (BCrypt in the server).
 *
 * <p>Hashing is slow by design, so {@link #login} blocks for tens of milliseconds: call it off the
 * Netty I/O threads.
 */
public final class AccountService {

    /** BCrypt reads at most 72 bytes; longer passwords are refused rather than silently cut. */
    public static final int MAX_PASSWORD_BYTES = 72;

    private final AccountStore store;
    private final PasswordEncoder encoder;

    public AccountService(AccountStore store, PasswordEncoder encoder) {
        this.store = store;
        this.encoder = encoder;
    }

    /** Checks or creates the account of {@code user}. Never throws for bad input: it refuses. */
    public LoginOutcome login(String user, String password) {
        Optional<String> badName = UserNames.problem(user);
        if (badName.isPresent()) {
            return new LoginOutcome.Refused(badName.get());
        }
        int passwordBytes = password == null ? 0 : password.getBytes(StandardCharsets.UTF_8).length;
        if (passwordBytes == 0 || passwordBytes > MAX_PASSWORD_BYTES) {
            return new LoginOutcome.Refused("a password of 1 to " + MAX_PASSWORD_BYTES + " bytes is required");
        }
        Optional<String> hash = store.passwordHash(user);
        if (hash.isEmpty()) {
            if (store.createIfAbsent(user, encoder.encode(password))) {
                return new LoginOutcome.Accepted(true);
            }
            // Another first login of the same name won the race: check against its password.
            hash = store.passwordHash(user);
            if (hash.isEmpty()) {
                throw new IllegalStateException("account " + user + " vanished right after being created");
            }
        }
        return encoder.matches(password, hash.get())
                ? new LoginOutcome.Accepted(false)
                : new LoginOutcome.Refused("wrong password for " + user);
    }

    /** True when {@code user} has an account. */
    public boolean exists(String user) {
        return store.exists(user);
    }
}
