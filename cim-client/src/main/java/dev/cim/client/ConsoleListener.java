package dev.cim.client;

import dev.cim.client.console.ChatView;
import dev.cim.client.console.Inert;
import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.CimListener;
import dev.cim.client.core.ConnectionEvent;
import dev.cim.client.core.GroupChange;
import dev.cim.client.core.ScheduledChange;

/** Shows what the client library hears on the console. */
final class ConsoleListener implements CimListener {

    private final ChatView view;
    private final String user;

    ConsoleListener(ChatView view, String user) {
        this.view = view;
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
        String which = "scheduled message #" + change.message().number() + " to " + change.message().recipient();
        switch (change.kind()) {
            case SCHEDULED -> view.info(which + " was scheduled on another terminal, for " + view.when(change.message().dueAt()));
            case EDITED -> view.info(which + " was changed on another terminal: now due " + view.when(change.message().dueAt()));
            case CANCELLED -> view.info(which + " was cancelled on another terminal");
            case SENT -> view.info(which + " was sent");
            case FAILED -> view.error(which + " could not be sent: " + change.reason());
        }
    }
}
