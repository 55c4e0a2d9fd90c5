package dev.cim.server.account;

import dev.cim.common.protocol.UserNames;
import dev.cim.server.store.AccountStore;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Logs users in, and makes accounts.
 *
 * <ul>
 *   <li><b>Names</b> follow {@link UserNames}: any case, known in lower case, and no account may look
 *       like another (the same {@link UserNames#skeleton skeleton}).</li>
 *   <li><b>Registration.</b> When it is open, the first login of a free name creates its account with
 *       that password (of at least {@code minPasswordLength} characters). When it is closed, only
 *       {@link #register} (the admin tool) makes accounts.</li>
 *   <li><b>Passwords</b> are stored as salted hashes made by the injected {@link PasswordEncoder}
 *       (BCrypt in the server), and guessing is slowed by the {@link LoginThrottle}.</li>
 *   <li><b>Session tokens.</b> A password login is answered with a {@link SessionTokens session token};
 *       a login with the token needs no hashing and is not throttled.</li>
 * </ul>
 * Hashing is slow by design, so {@link #login} blocks for tens of milliseconds: call it off the
 * Netty I/O threads.
 */
public final class AccountService {

    /** BCrypt reads at most 72 bytes; longer passwords are refused rather than silently cut. */
    public static final int MAX_PASSWORD_BYTES = 72;

    /**
     * How accounts are made.
     *
     * @param openRegistration  true when a first login creates the account
     * @param minPasswordLength the fewest characters a new account's password may have
     */
    public record Policy(boolean openRegistration, int minPasswordLength) {
        public Policy {
            if (minPasswordLength < 1 || minPasswordLength > MAX_PASSWORD_BYTES) {
                throw new IllegalArgumentException("minimum password length: " + minPasswordLength
                        + " (expected: 1 to " + MAX_PASSWORD_BYTES + ")");
            }
        }
    }

    /** A login as a client asks for it: a password or a session token, and where it comes from. */
    public record Attempt(String user, String password, String token, String address) {
    }

    private final AccountStore store;
    private final PasswordEncoder encoder;
    private final SessionTokens tokens;
    private final LoginThrottle throttle;
    private final Policy policy;

    public AccountService(AccountStore store, PasswordEncoder encoder, SessionTokens tokens, LoginThrottle throttle,
            Policy policy) {
        this.store = store;
        this.encoder = encoder;
        this.tokens = tokens;
        this.throttle = throttle;
        this.policy = policy;
    }

    /** Checks or creates the account of {@code attempt.user()}. Never throws for bad input: it refuses. */
    public LoginOutcome login(Attempt attempt) {
        Optional<String> badName = UserNames.problem(attempt.user());
        if (badName.isPresent()) {
            return new LoginOutcome.Refused(badName.get());
        }
        String user = UserNames.canonical(attempt.user());
        if (attempt.token() != null && !attempt.token().isEmpty()) {
            return tokens.use(user, attempt.token())
                    ? new LoginOutcome.Accepted(user, false, "")
                    : new LoginOutcome.Refused("the session of " + user
                            + " has expired or was ended (expected: log in with the password again)");
        }
        LoginThrottle.Check check = throttle.loginCheck(user, attempt.address());
        if (check.mustWait() != null) {
            return refusedFor(check.mustWait());
        }
        String password = attempt.password() == null ? "" : attempt.password();
        int passwordBytes = password.getBytes(StandardCharsets.UTF_8).length;
        if (passwordBytes == 0 || passwordBytes > MAX_PASSWORD_BYTES) {
            return new LoginOutcome.Refused("a password of 1 to " + MAX_PASSWORD_BYTES + " bytes is required");
        }
        Optional<String> hash = store.passwordHash(user);
        if (hash.isEmpty()) {
            return policy.openRegistration() ? createOnLogin(user, password, attempt.address())
                    : failed(null, attempt.address(), "there is no account " + user
                            + " and this server's registration is closed (expected: an account made by its operator)");
        }
        if (!encoder.matches(password, hash.get())) {
            return failed(user, attempt.address(), "wrong password for " + user);
        }
        if (check.failures()) {
            throttle.succeeded(user);
        }
        return new LoginOutcome.Accepted(user, false, tokens.issue(user));
    }

    /**
     * Creates an account whatever the registration setting (the admin tool's way in).
     *
     * @return empty when created, else why not
     */
    public Optional<String> register(String name, String password) {
        Optional<String> problem = UserNames.problem(name).or(() -> passwordProblem(password));
        if (problem.isPresent()) {
            return problem;
        }
        String user = UserNames.canonical(name);
        return switch (store.create(user, UserNames.skeleton(user), encoder.encode(password))) {
            case CREATED -> Optional.empty();
            case EXISTS -> Optional.of("the account " + user + " exists already");
            case LOOKS_TAKEN -> Optional.of(lookAlike(user));
        };
    }

    /**
     * Gives an existing account a new password (the admin tool's reset) and ends its sessions, so
     * that whoever knew the old password is logged out too.
     *
     * @return empty when changed, else why not
     */
    public Optional<String> changePassword(String name, String password) {
        Optional<String> problem = UserNames.problem(name).or(() -> passwordProblem(password));
        if (problem.isPresent()) {
            return problem;
        }
        String user = UserNames.canonical(name);
        if (!store.replacePasswordHash(user, encoder.encode(password))) {
            return Optional.of("there is no account " + user);
        }
        tokens.revokeAll(user);
        return Optional.empty();
    }

    /** Ends every session of {@code user} that logs in with a token; returns how many tokens there were. */
    /** Ends one session token of {@code user}: the one a client logs out with. */
    public boolean logOut(String user, String token) {
        return tokens.revoke(UserNames.canonical(user), token);
    }

    public long revokeSessions(String user) {
        return tokens.revokeAll(UserNames.canonical(user));
    }

    /** True when {@code user} has an account. */
    public boolean exists(String user) {
        return store.exists(UserNames.canonical(user));
    }

    /** Those of {@code users} (canonical names) that have an account, asked of the store in one round trip. */
    public Set<String> existing(Collection<String> users) {
        return store.existing(users);
    }

    /** The time zone each of {@code users} (canonical names) set, for those who set one: one round trip. */
    public Map<String, String> zones(Collection<String> users) {
        return store.zones(users);
    }

    /** The time zone {@code user} (a canonical name) set, or empty. */
    public Optional<String> zone(String user) {
        return store.zone(user);
    }

    /** Sets the time zone of {@code user} (a canonical name with an account), an IANA zone id. */
    public void setZone(String user, String zone) {
        store.setZone(user, zone);
    }

    private LoginOutcome createOnLogin(String user, String password, String address) {
        Optional<String> weak = passwordProblem(password);
        if (weak.isPresent()) {
            return new LoginOutcome.Refused("cannot create the account " + user + ": " + weak.get());
        }
        Optional<String> taken = store.ownerOf(UserNames.skeleton(user)).filter(owner -> !owner.equals(user));
        if (taken.isPresent()) {
            return new LoginOutcome.Refused(lookAlike(user));
        }
        LoginThrottle.Wait wait = throttle.registrationWait(address);
        if (wait == null) {
            wait = throttle.reserveRegistration(address);
        }
        if (wait != null) {
            return refusedFor(wait);
        }
        AccountStore.Creation creation = store.create(user, UserNames.skeleton(user), encoder.encode(password));
        switch (creation) {
            case CREATED -> {
                return new LoginOutcome.Accepted(user, true, tokens.issue(user));
            }
            case LOOKS_TAKEN -> {
                return new LoginOutcome.Refused(lookAlike(user));
            }
            default -> {
                // Another first login of the same name won the race: check against its password.
                String hash = store.passwordHash(user).orElseThrow(() -> new IllegalStateException(
                        "account " + user + " vanished right after being created"));
                return encoder.matches(password, hash)
                        ? new LoginOutcome.Accepted(user, false, tokens.issue(user))
                        : failed(user, address, "wrong password for " + user);
            }
        }
    }

    private LoginOutcome failed(String user, String address, String reason) {
        throttle.failed(user, address);
        return new LoginOutcome.Refused(reason);
    }

    private Optional<String> passwordProblem(String password) {
        if (password == null || password.codePointCount(0, password.length()) < policy.minPasswordLength()) {
            return Optional.of("the password is too short (expected: at least " + policy.minPasswordLength()
                    + " characters)");
        }
        if (password.getBytes(StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
            return Optional.of("the password is too long (expected: at most " + MAX_PASSWORD_BYTES + " bytes)");
        }
        return Optional.empty();
    }

    private String lookAlike(String user) {
        String owner = store.ownerOf(UserNames.skeleton(user)).orElse("another user");
        return "the name " + user + " looks too much like the existing user " + owner + " (expected: another name)";
    }

    private static LoginOutcome refusedFor(LoginThrottle.Wait wait) {
        long seconds = Math.max(1, (wait.retryAfter().toMillis() + 999) / 1000);
        return new LoginOutcome.Refused(wait.reason() + "; try again in " + seconds + " s", wait.retryAfter());
    }
}
