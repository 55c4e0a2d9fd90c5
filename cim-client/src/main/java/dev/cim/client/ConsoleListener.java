package dev.cim.client;

import dev.cim.client.console.ChatView;
import dev.cim.client.console.Inert;
import dev.cim.client.console.ScheduleView;
import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.CimListener;
import dev.cim.client.core.ConnectionEvent;
import dev.cim.client.core.GroupChange;
import dev.cim.client.core.ScheduledChange;
import java.time.ZoneId;

/** Shows what the client library hears on the console. */
final class ConsoleListener implements CimListener {

    private final ChatView view;
    private final ScheduleView schedules;
    private final String user;

    ConsoleListener(ChatView view, ScheduleView schedules, String user) {
        this.view = view;
        this.schedules = schedules;
        this.user = user;
    }

    @Override
    public void onMessage(ChatMessage message) {
        view.chat(message);
    }

    @Override
    public void onConnection(ConnectionEvent event) {
        if (event instanceof ConnectionEvent.Connecting connecting && connecting.attempt() == 1) {
            view.info("connecting to " + connecting.address() + " as " + user + " ...");
        } else if (event instanceof ConnectionEvent.Connected connected) {
            view.info("logged in as " + user + (connected.accountCreated() ? " (new account)" : "")
                    + " on " + Inert.line(connected.nodeId())
                    + (connected.resent() == 0 ? "" : "; sent " + connected.resent() + " held message"
                            + (connected.resent() == 1 ? "" : "s"))
                    + ". Type :help for commands.");
        } else if (event instanceof ConnectionEvent.Disconnected disconnected) {
            view.info(Inert.line(disconnected.reason()) + "; reconnecting in " + disconnected.retryIn().toMillis() + " ms");
        } else if (event instanceof ConnectionEvent.GoingAway away) {
            view.info(Inert.line(away.reason()) + "; reconnecting in " + away.retryIn().toMillis() + " ms");
        } else if (event instanceof ConnectionEvent.Refused refused) {
            view.error("login refused: " + refused.reason());
        } else if (event instanceof ConnectionEvent.TlsFailed failed) {
            view.error(failed.reason() + "; see cim.client.tls.* in the README");
        }
    }

    @Override
    public void onGroupChange(GroupChange change) {
        view.groupChange(change);
    }

    @Override
    public void onScheduledChange(ScheduledChange change) {
        schedules.change(change);
    }

    /** The library has taken the zone already: the times shown from now on are in it. */
    @Override
    public void onZoneChanged(ZoneId zone) {
        view.info("your time zone was set to " + Inert.line(zone.getId()) + " on another terminal: :at and :every read "
                + "times there, and times are shown there");
    }
}
