/**
 * The chat core of one node, as a transport sees it: {@link dev.cim.server.chat.ChatService} takes
 * a connection's login and then its frames, and hands back a {@link dev.cim.server.chat.ClientSession}
 * for it. {@link dev.cim.server.chat.ChatCore} assembles the parts, which live in the packages below
 * this one, each using only those below it:
 * <pre>
 *   chat            logins, a client's messages (Sends) and the transports' face
 *   chat.schedule   scheduled messages
 *   chat.origin     client origins: each request routed once, answered again on a repeat
 *   chat.routing    a message to everyone it is for: sessions here, inboxes, other nodes
 *   chat.session    a connection's session: its delivery window and inbox catch-up
 *   chat.platform   what they all run on: lanes, the wheel, clocks, periodic threads
 * </pre>
 * Nothing here knows Netty or Redis: transports implement {@link dev.cim.server.chat.session.Connection},
 * stores implement the ports of {@code dev.cim.server.store}.
 */
package dev.cim.server.chat;
