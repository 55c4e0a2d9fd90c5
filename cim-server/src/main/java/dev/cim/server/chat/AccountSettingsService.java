package dev.cim.server.chat;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.AccountSettings;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.account.AccountService;
import dev.cim.server.chat.routing.Terminals;
import dev.cim.server.chat.session.Replies;
import dev.cim.server.chat.session.Session;
import dev.cim.server.store.StoreFullException;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A user's account settings (for now their time zone): changed by any of their terminals, stored
 * with the account, answered with the settings as they now are, and told to the user's other
 * terminals; read at each login into the login result.
 */
final class AccountSettingsService {

    private static final Logger log = LoggerFactory.getLogger(AccountSettingsService.class);

    private final AccountService accounts;
    private final Terminals terminals;
    private final Executor blocking;

    AccountSettingsService(AccountService accounts, Terminals terminals, Executor blocking) {
        this.accounts = accounts;
        this.terminals = terminals;
        this.blocking = blocking;
    }

    /** Why {@code zone} is not a time zone the server takes, in words for the user; empty when it is. */
    static Optional<String> zoneProblem(String zone) {
        try {
            ZoneId.of(zone);
            return Optional.empty();
        } catch (DateTimeException e) {
            return Optional.of("unknown time zone '" + zone + "' (expected: an IANA zone such as Europe/Berlin)");
        }
    }

    /** Request {@code id} of {@code session}: change the settings set in {@code asked}. */
    void set(Session session, long id, AccountSettings asked) {
        String zone = asked.getZone().strip();
        Optional<String> problem = zone.isEmpty()
                ? Optional.of("no setting to change (expected: a time zone)") : zoneProblem(zone);
        if (problem.isPresent()) {
            session.connection().send(Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "not changed: " + problem.get(),
                    false));
            return;
        }
        String canonical = ZoneId.of(zone).getId();
        blocking.execute(() -> {
            try {
                accounts.setZone(session.user(), canonical);
            } catch (RuntimeException e) {
                log.warn("Could not set the time zone of {}: {}", session, e.toString());
                session.connection().owner().execute(() -> session.connection().send(Envelopes.error(id,
                        ErrorReply.Code.INTERNAL, StoreFullException.describe(e) + "; try again", false)));
                return;
            }
            AccountSettings now = AccountSettings.newBuilder().setZone(canonical).build();
            Replies replies = new Replies();
            replies.add(session, Envelopes.settings(id, now));
            terminals.tell(replies, session.user(), session, () -> Envelopes.settings(0, now), "about a setting");
            replies.send();
        });
    }

    /** The settings of {@code user} as stored; blocks (on a lane or the blocking executor). */
    AccountSettings of(String user) {
        return AccountSettings.newBuilder().setZone(accounts.zone(user).orElse("")).build();
    }
}
