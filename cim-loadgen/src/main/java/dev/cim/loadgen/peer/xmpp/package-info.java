/**
 * The XMPP side of part 1's comparison ({@code --against=server,ejabberd}): the same 1:1 traffic as
 * cim's, sent through ejabberd (Debian's 23.01, started by {@code bin/peer-ejabberd}, driven from
 * Java by {@link dev.cim.loadgen.peer.xmpp.PeerEjabberd}) by Smack clients. The generator's traffic
 * classes drive the users as they drive cim's, through {@code dev.cim.loadgen.ChatUser}: an
 * {@link dev.cim.loadgen.peer.xmpp.XmppPool} is the side's users.
 *
 * <h3>One connection per user</h3>
 * {@link dev.cim.loadgen.peer.xmpp.XmppUser} is user {@code u<i>}: one Smack
 * {@code XMPPTCPConnection} (a reading and a writing thread each), logged in with SCRAM-SHA-1,
 * initial presence sent (ejabberd routes a message to a bare JID only to an available resource, and
 * stores it offline otherwise). A send is a {@code <message type='chat'>} to the bare JID
 * {@code u<j>@domain} whose body is the generator's token text; a received one goes to the traffic
 * ({@code Traffic.onText}) with the {@link System#nanoTime()} read first thing in the listener, one
 * hand-off after Smack's reading thread parsed it (Smack runs the listener on its executor, the
 * reader waiting for it): that hand-off is part of what the client costs, and counts as latency.
 * The connection is plaintext with TCP_NODELAY: the peer listens on loopback only, and TLS would
 * measure the JDK's engine on both sides.
 *
 * <h3>What stands for QoS 1 here</h3>
 * Stream management (XEP-0198) is required: the server counts the stanzas it has handled and
 * answers Smack's {@code <r/>} (sent after every message, Smack's default) with {@code <a h='n'/>};
 * each message so acknowledged goes to the traffic of its send as {@code Traffic.onAccepted}. With
 * {@code mod_offline}, a message whose recipient is not online is stored and delivered at its next
 * login. Together that is what an MQTT QoS 1 publish to a persistent session promises, and no
 * more: the ack is <b>hop by hop</b>. It says the server took the stanza off the sender's stream,
 * not that the recipient has it; the server's own stream to the recipient is acknowledged by the
 * recipient's client in the same way, and only the message's arrival closes the loop and ends its
 * latency. So the acks are counted apart from deliveries, as "accepted by the server". Nothing is
 * resumed (no XEP-0198 resumption): a connection lost during a run is counted as dropped, and its
 * messages show as lost.
 *
 * <h3>The same accounts in every run</h3>
 * The users are the accounts the script registered, not new ones per run as cim's and MQTT's are,
 * so what a run stopped midway left in their offline store arrives at the next run's login. The
 * generator's part 1 tags its texts as its own run's ({@code Token.ofThisRun}), and such a message
 * is ignored.
 */
package dev.cim.loadgen.peer.xmpp;
