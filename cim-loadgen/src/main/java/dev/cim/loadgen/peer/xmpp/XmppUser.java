package dev.cim.loadgen.peer.xmpp;

import dev.cim.loadgen.ChatUser;
import dev.cim.loadgen.Traffic;
import dev.cim.loadgen.peer.NoDelaySockets;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import org.jivesoftware.smack.ConnectionConfiguration.SecurityMode;
import org.jivesoftware.smack.ConnectionListener;
import org.jivesoftware.smack.SmackException;
import org.jivesoftware.smack.XMPPException;
import org.jivesoftware.smack.filter.MessageTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Domainpart;
import org.jxmpp.jid.parts.Localpart;

/**
 * One load user of an XMPP server, {@code u<index>}, as a {@link ChatUser}: a logged-in Smack
 * connection with stream management that sends chat messages to other users of its pool, hands the
 * bodies it receives to the traffic as {@link Traffic#onText}, and the server's acks of what it sent
 * as {@link Traffic#onAccepted} (the design: the package's description).
 *
 * <h3>An ack's traffic</h3>
 * The server's acks come in the order of the stanzas sent, so the user keeps the traffic of each
 * message it sent in a queue, in the order they went to Smack's writer, and an ack of a message
 * takes the oldest: an answer goes to the traffic of its send, as with the other users, even when
 * it comes after the generator has moved on to its next measurement.
 */
public final class XmppUser implements ChatUser {

    private static final long LOGIN_TIMEOUT_MILLIS = 30_000;

    private final String name;
    private final EntityBareJid jid;
    private final XMPPTCPConnection connection;
    private final ScheduledExecutorService pacer;
    /** The traffic of each message sent and not yet acknowledged, oldest first; guarded by itself. */
    private final ArrayDeque<Traffic> unacknowledged = new ArrayDeque<>();
    private volatile Traffic traffic = Traffic.NONE;
    private volatile boolean closing;

    private XmppUser(String name, EntityBareJid jid, XMPPTCPConnection connection, ScheduledExecutorService pacer,
            LongAdder dropped) {
        this.name = name;
        this.jid = jid;
        this.connection = connection;
        this.pacer = pacer;
        connection.addStanzaListener(stanza -> {
            long receivedNanos = System.nanoTime();
            String body = ((Message) stanza).getBody();
            if (body != null) {
                traffic.onText(this, body, receivedNanos);
            }
        }, MessageTypeFilter.CHAT);
        connection.addStanzaAcknowledgedListener(this::acknowledged);
        connection.addConnectionListener(new ConnectionListener() {
            @Override
            public void connectionClosedOnError(Exception e) {
                if (!closing) {
                    dropped.increment();
                }
            }
        });
    }

    /**
     * Connects and logs in user {@code u<index>}, with stream management enabled and initial
     * presence sent.
     *
     * @param pacer   the loop that paces this user's sends, shared with others
     * @param dropped counts connections lost without the generator closing them
     * @throws IOException if the user cannot connect or log in, or the server does not enable
     *                     stream management
     */
    static XmppUser connect(XmppEndpoint endpoint, int index, ScheduledExecutorService pacer, LongAdder dropped)
            throws IOException, InterruptedException {
        String name = XmppEndpoint.user(index);
        XMPPTCPConnection connection;
        EntityBareJid jid;
        try {
            jid = JidCreate.entityBareFrom(Localpart.from(name), Domainpart.from(endpoint.domain()));
            connection = new XMPPTCPConnection(XMPPTCPConnectionConfiguration.builder()
                    .setXmppDomain(endpoint.domain())
                    .setHostAddress(InetAddress.getByName(endpoint.host()))
                    .setPort(endpoint.port())
                    .setSocketFactory(NoDelaySockets.INSTANCE)
                    .setUsernameAndPassword(name, endpoint.password())
                    .setResource("load")
                    .setSecurityMode(SecurityMode.disabled) // plaintext on loopback: the package's description
                    .setSendPresence(true)
                    .build());
        } catch (IOException e) {
            throw new IOException("user " + name + ": bad endpoint " + endpoint + ": " + e.getMessage(), e);
        }
        // A login waits its turn on a server whose cores the generator shares: more than Smack's 5 s.
        connection.setReplyTimeout(LOGIN_TIMEOUT_MILLIS);
        connection.setUseStreamManagement(true);
        connection.setUseStreamManagementResumption(false);
        XmppUser user = new XmppUser(name, jid, connection, pacer, dropped);
        try {
            connection.connect().login();
        } catch (SmackException | XMPPException | IOException e) {
            user.close();
            throw new IOException("user " + name + " could not log in to " + endpoint.host() + ":" + endpoint.port()
                    + " (" + endpoint.domain() + "): " + e, e);
        } catch (InterruptedException e) {
            user.close();
            throw e;
        }
        if (!connection.isSmEnabled()) {
            user.close();
            throw new IOException("user " + name + ": the server did not enable stream management"
                    + " (expected: XEP-0198, ejabberd's mod_stream_mgmt)");
        }
        return user;
    }

    /** The user's name (the local part of its JID): {@code u<index>}. */
    public String name() {
        return name;
    }

    /**
     * Sends {@code text} as a chat message to {@code to}'s bare JID: queued for Smack's writing
     * thread, waiting only while its queue is full. A failure (the connection is closed) goes to the
     * traffic as {@link Traffic#onFailure}.
     */
    @Override
    public void send(ChatUser to, String text) {
        if (!(to instanceof XmppUser user)) {
            throw new IllegalArgumentException("to: " + to + " (expected: an XMPP user, of the same side as " + name
                    + ")");
        }
        Message message = connection.getStanzaFactory().buildMessageStanza()
                .to(user.jid)
                .ofType(Message.Type.chat)
                .setBody(text)
                .build();
        Traffic current = traffic;
        synchronized (unacknowledged) { // the queue in the order of Smack's
            unacknowledged.addLast(current);
            try {
                connection.sendStanza(message);
            } catch (SmackException.NotConnectedException e) {
                unacknowledged.pollLast();
                current.onFailure(this, e);
            } catch (InterruptedException e) {
                unacknowledged.pollLast();
                Thread.currentThread().interrupt();
                current.onFailure(this, e);
            }
        }
    }

    /** The server acknowledged {@code stanza}, one of this user's: a message goes to the traffic of its send. */
    private void acknowledged(Stanza stanza) {
        if (!(stanza instanceof Message)) {
            return; // the initial presence
        }
        Traffic sentUnder;
        synchronized (unacknowledged) {
            sentUnder = unacknowledged.pollFirst();
        }
        if (sentUnder != null) {
            sentUnder.onAccepted(this);
        }
    }

    @Override
    public void traffic(Traffic traffic) {
        this.traffic = traffic;
    }

    @Override
    public ScheduledExecutorService pacer() {
        return pacer;
    }

    /** Sends unavailable presence and closes the stream (not counted as dropped). */
    void close() {
        closing = true;
        connection.disconnect();
    }

    @Override
    public String toString() {
        return "XMPP user " + name;
    }
}
