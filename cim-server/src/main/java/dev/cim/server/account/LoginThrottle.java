package dev.cim.server.account;

import dev.cim.server.store.AttemptCounters;
import dev.cim.server.store.AttemptCounters.Count;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Slows down password guessing and mass registration, on every node at once (the counts live in
 * the shared store).
 *
 * <p><b>Failed logins</b> are counted per account and per client address. After
 * {@code freeFailures} failures, each further attempt must wait twice as long as the one before (1 s,
 * 2 s, 4 s, ... up to {@code maxDelay}) after the last failure; after {@code lockAfter} failures the
 * subject is locked for {@code lockDuration}. An address gets {@value #ADDRESS_FACTOR} times as many
 * failures before each step, since many users may share one (an office behind NAT), and one guesser
 * may try many accounts. A count is forgotten {@code lockDuration} after its
 * last failure, and an account's at its next successful login. A throttled attempt is refused before
 * its password is checked, so it costs the server no hashing. A user already logged in is not
 * affected: clients reconnect with session tokens, which are not throttled (they cannot be guessed).
 *
 * <p><b>New accounts</b> are counted per address: at most {@code registrations} until the address has
 * made none for {@code registrationWindow}.
 *
 * @see AccountService
 */
public final class LoginThrottle {

    /** How many times an account's failures an address may have before the same delay or lock. */
    static final int ADDRESS_FACTOR = 4;

    /**
     * The throttle's settings.
     *
     * @param freeFailures       failed logins allowed before the delays begin
     * @param maxDelay           the longest delay between two attempts before the lock
     * @param lockAfter          failed logins after which the account or address is locked
     * @param lockDuration       how long a lock lasts; also how long failures are remembered
     * @param registrations      accounts one address may create within the window
     * @param registrationWindow how long an address's registrations are remembered after its last
     */
    public record Policy(int freeFailures, Duration maxDelay, int lockAfter, Duration lockDuration, int registrations,
            Duration registrationWindow) {
        public Policy {
            if (freeFailures < 1 || lockAfter <= freeFailures || registrations < 1) {
                throw new IllegalArgumentException("login throttle: free failures " + freeFailures + ", lock after "
                        + lockAfter + ", registrations " + registrations
                        + " (expected: 1 <= free failures < lock after, registrations >= 1)");
            }
            if (maxDelay.isNegative() || lockDuration.compareTo(maxDelay) < 0 || registrationWindow.isNegative()) {
                throw new IllegalArgumentException("login throttle: max delay " + maxDelay + ", lock " + lockDuration
                        + ", registration window " + registrationWindow
                        + " (expected: 0 <= max delay <= lock duration, window >= 0)");
            }
        }
    }

    /** Why an attempt must wait, and until when. */
    public record Wait(String reason, Duration retryAfter) {
    }

    private final AttemptCounters counters;
    private final Policy policy;
    private final Clock clock;

    public LoginThrottle(AttemptCounters counters, Policy policy, Clock clock) {
        this.counters = counters;
        this.policy = policy;
        this.clock = clock;
    }

    /**
     * What a password login of {@code user} from {@code address} finds: whether it must wait, and
     * whether the account has failures to forget when it succeeds.
     *
     * @param mustWait null when it may go ahead
     * @param failures true when the account has failed logins counted
     */
    public record Check(Wait mustWait, boolean failures) {
    }

    /** Checks a password login of {@code user} from {@code address}: both counts in one round trip. */
    public Check loginCheck(String user, String address) {
        Instant now = clock.instant();
        List<Count> counts = counters.get(List.of(account(user), fromAddress(address)));
        Wait wait = wait(counts.get(0), 1, now, "failed logins for " + user);
        if (wait == null) {
            wait = wait(counts.get(1), ADDRESS_FACTOR, now, "failed logins from your address");
        }
        return new Check(wait, counts.get(0).attempts() > 0);
    }

    /** Records a failed login of {@code user} (null when no account was named) from {@code address}. */
    public void failed(String user, String address) {
        Instant now = clock.instant();
        if (user != null) {
            counters.add(account(user), now, policy.lockDuration());
        }
        counters.add(fromAddress(address), now, policy.lockDuration());
    }

    /** A successful password login of {@code user}: its failures are forgotten. */
    public void succeeded(String user) {
        counters.clear(account(user));
    }

    /**
     * Whether {@code address} must wait before creating another account; null when it may. Reads
     * only: a refused attempt does not push the address's rest further away. Before creating the
     * account, {@link #reserveRegistration} counts it.
     */
    public Wait registrationWait(String address) {
        Count count = counters.get(registrations(address));
        if (count.attempts() < policy.registrations()) {
            return null;
        }
        Duration left = Duration.between(clock.instant(), count.last().plus(policy.registrationWindow()));
        return left.isNegative() || left.isZero() ? null : registrationsWait(left);
    }

    /**
     * Counts an account about to be created from {@code address}, and refuses it (returns why) when
     * the count is past the limit: count and check are one step in the store, so first logins that
     * arrive together from one address cannot all pass a check made before any of them was counted.
     * An attempt counts even if the account is then not created (its name was taken meanwhile).
     *
     * @return null when the account may be created
     */
    public Wait reserveRegistration(String address) {
        Count count = counters.add(registrations(address), clock.instant(), policy.registrationWindow());
        return count.attempts() > policy.registrations() ? registrationsWait(policy.registrationWindow()) : null;
    }

    private Wait registrationsWait(Duration left) {
        return new Wait("too many new accounts from your address (at most " + policy.registrations() + ")", left);
    }

    /**
     * How long after its last failure a subject with {@code failures} must wait (zero when it need
     * not), with every threshold multiplied by {@code factor}.
     */
    Duration delayAfter(long failures, int factor) {
        if (failures < (long) policy.freeFailures() * factor) {
            return Duration.ZERO;
        }
        if (failures >= (long) policy.lockAfter() * factor) {
            return policy.lockDuration();
        }
        long exponent = Math.min((failures - (long) policy.freeFailures() * factor) / factor, 30);
        Duration delay = Duration.ofSeconds(1L << exponent);
        return delay.compareTo(policy.maxDelay()) > 0 ? policy.maxDelay() : delay;
    }

    private Wait wait(Count count, int factor, Instant now, String what) {
        Duration delay = delayAfter(count.attempts(), factor);
        Duration left = Duration.between(now, count.last().plus(delay));
        if (delay.isZero() || left.isNegative() || left.isZero()) {
            return null;
        }
        String kind = count.attempts() >= (long) policy.lockAfter() * factor ? "locked after " : "slowed down after ";
        return new Wait(kind + count.attempts() + " " + what, left);
    }

    private static String account(String user) {
        return "login:u:" + user;
    }

    private static String fromAddress(String address) {
        return "login:a:" + address;
    }

    private static String registrations(String address) {
        return "register:a:" + address;
    }
}
