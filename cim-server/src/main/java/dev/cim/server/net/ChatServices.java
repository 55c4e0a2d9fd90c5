package dev.cim.server.net;

import dev.cim.server.CimServerProperties;
import dev.cim.server.account.AccountService;
import dev.cim.server.presence.PresenceStore;
import dev.cim.server.routing.ChatRouter;
import dev.cim.server.routing.MessageStamper;
import dev.cim.server.routing.OfflineInbox;
import dev.cim.server.session.SessionManager;
import java.time.Clock;
import java.util.Objects;

/**
 * The services the per-connection handlers use, handed to {@link CimServer} as one bean so the
 * initializer can pass them on to each new connection's handlers.
 */
public record ChatServices(
        CimServerProperties properties,
        AccountService accounts,
        SessionManager sessions,
        OfflineInbox inbox,
        MessageStamper stamper,
        ChatRouter router,
        PresenceStore presence,
        Clock clock) {

    public ChatServices {
        Objects.requireNonNull(properties, "properties");
        Objects.requireNonNull(accounts, "accounts");
        Objects.requireNonNull(sessions, "sessions");
        Objects.requireNonNull(inbox, "inbox");
        Objects.requireNonNull(stamper, "stamper");
        Objects.requireNonNull(router, "router");
        Objects.requireNonNull(presence, "presence");
        Objects.requireNonNull(clock, "clock");
    }
}
