package dev.cim.server.account;

import java.time.Duration;

/** What became of a login: accepted (maybe creating the account) or refused with a reason. */
public sealed interface LoginOutcome {

    /**
     * Logged in.
     *
     * @param user    the user's name as the server knows it (lower case)
     * @param created true when this login created the account
     * @param token   a session token to log in with next time; empty when the login used one
     */
    record Accepted(String user, boolean created, String token) implements LoginOutcome {
    }

    /**
     * Refused.
     *
     * @param reason     one line fit to show the user
     * @param retryAfter zero when trying again will not help; else how long until a new attempt may
     *                   succeed (the client was throttled)
     */
    record Refused(String reason, Duration retryAfter) implements LoginOutcome {
        public Refused(String reason) {
            this(reason, Duration.ZERO);
        }
    }
}
