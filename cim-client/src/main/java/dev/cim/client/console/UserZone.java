package dev.cim.client.console;

import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The user's time zone: the one set on their account ({@code :tz Europe/Berlin}, kept by the
 * server, heard at login and when another terminal changes it), else this client's own
 * ({@code cim.client.time-zone}, else the system's). Times typed are read in it and times shown
 * are shown in it. Thread-safe: read on the console's thread, followed on the client's.
 */
public final class UserZone {

    private final ZoneId fallback;
    private volatile Supplier<Optional<ZoneId>> account = Optional::empty;

    /** @param fallback this client's zone, for as long as the account has none */
    public UserZone(ZoneId fallback) {
        this.fallback = Objects.requireNonNull(fallback, "fallback");
    }

    /**
     * Reads the account's zone from {@code account} from now on (the client library's
     * {@code CimClient::zone}, which it keeps up to date); made once the client exists, as the client
     * needs the views that need this.
     */
    public void follow(Supplier<Optional<ZoneId>> accountZone) {
        this.account = Objects.requireNonNull(accountZone, "accountZone");
    }

    /** The zone in effect: the account's if set, else this client's. */
    public ZoneId get() {
        return account().orElse(fallback);
    }

    /** The account's zone, when one is set. */
    public Optional<ZoneId> account() {
        return account.get();
    }

    /** This client's own zone. */
    public ZoneId fallback() {
        return fallback;
    }
}
