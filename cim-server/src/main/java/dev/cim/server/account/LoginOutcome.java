package dev.cim.server.account;

/** What became of a login: accepted (maybe creating the account) or refused with a reason. */
public sealed interface LoginOutcome {

    /** Logged in; {@code created} when this login created the account. */
    record Accepted(boolean created) implements LoginOutcome {
    }

    /** Refused; {@code reason} is one line fit to show the user. */
    record Refused(String reason) implements LoginOutcome {
    }
}
