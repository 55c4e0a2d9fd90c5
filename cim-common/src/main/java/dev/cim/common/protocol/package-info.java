/**
 * The cim wire protocol, shared by client and server.
 *
 * <ul>
 *   <li>{@code src/main/proto/cim.proto}: the schema, one {@code Envelope} per frame with a protocol
 *       version, a request id for correlating answers, and a {@code oneof} of message kinds (login
 *       request and result, chat, server notice, error, ping, pong, online users request and
 *       reply). Generated classes live in {@code dev.cim.common.protocol.proto}.</li>
 *   <li>{@link dev.cim.common.protocol.CimProtocolCodec}: installs the Netty codec (4-byte length
 *       prefix + protobuf), with typed failures for oversized, garbage and wrong-version frames.</li>
 *   <li>{@link dev.cim.common.protocol.Envelopes}: builds every kind of envelope, versioned.</li>
 *   <li>{@link dev.cim.common.protocol.ChatMessage}: the record Java code uses for a chat message,
 *       converted from and to the wire form; {@link dev.cim.common.protocol.UserNames}: the rule for
 *       user names.</li>
 * </ul>
 *
 * A console client logs in with {@code Envelopes.loginRequest}, sends {@code Envelopes.chat} with
 * {@code ChatMessage.outgoing(recipient, text)} (recipient a user name or
 * {@link dev.cim.common.protocol.ChatMessage#EVERYONE}), holds a delayed message on its own delay
 * wheel and sends {@code ChatMessage.outgoingDelayed(...)} when it is due, asks
 * {@code Envelopes.onlineUsersRequest}, and pings every {@code heartbeat_interval_millis} the login
 * result gives.
 */
package dev.cim.common.protocol;
