/**
 * The cim wire protocol, shared by client and server.
 *
 * <ul>
 *   <li>{@code src/main/proto/cim.proto}: the schema and the conversation, one {@code Envelope} per
 *       frame with a protocol version, a request id, and a {@code oneof} of message kinds. Generated
 *       classes live in {@code dev.cim.common.protocol.proto}.</li>
 *   <li>{@link dev.cim.common.protocol.CimProtocolCodec}: installs the Netty codec (a 4-byte length
 *       prefix, then the protobuf payload), with typed failures for oversized, garbage and
 *       wrong-version frames. The framing and the payload codec are separate handlers, so another
 *       transport can carry the same payload.</li>
 *   <li>{@link dev.cim.common.protocol.Envelopes}: builds every kind of envelope, versioned.</li>
 *   <li>{@link dev.cim.common.protocol.MessageIds}: message ids, {@code "<origin>-<sequence>"}
 *       chosen by the sender.</li>
 *   <li>{@link dev.cim.common.protocol.UserNames} and {@link dev.cim.common.protocol.ChatRules}: the
 *       rules for user names, recipients and texts, checked by both ends.</li>
 * </ul>
 *
 * Java programs do not speak this protocol by hand: the client library ({@code cim-client-core},
 * {@code dev.cim.client.core.CimClient}) does.
 */
package dev.cim.common.protocol;
