package dev.cim.common.protocol;

import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.LoginRequest;
import dev.cim.common.protocol.proto.LoginResult;
import dev.cim.common.protocol.proto.OnlineUsersReply;
import dev.cim.common.protocol.proto.OnlineUsersRequest;
import dev.cim.common.protocol.proto.Ping;
import dev.cim.common.protocol.proto.Pong;
import dev.cim.common.protocol.proto.ServerNotice;
import java.time.Duration;
import java.util.Collection;

/**
 * Builds every kind of {@link Envelope}, stamped with the {@link #PROTOCOL_VERSION}. The
 * {@code requestId} parameters are the correlation ids described in {@code cim.proto}: a client
 * picks one per request (0 for none) and the server echoes it on the direct answer.
 */
public final class Envelopes {

    /** The protocol version this code speaks; see the compatibility note in {@code cim.proto}. */
    public static final int PROTOCOL_VERSION = 1;

    private Envelopes() {
    }

    /** A new builder with the version set. */
    public static Envelope.Builder builder(long requestId) {
        return Envelope.newBuilder().setVersion(PROTOCOL_VERSION).setRequestId(requestId);
    }

    public static Envelope loginRequest(long requestId, String userName, String password) {
        return builder(requestId)
                .setLoginRequest(LoginRequest.newBuilder().setUserName(userName).setPassword(password))
                .build();
    }

    /** A successful login result. */
    public static Envelope loginAccepted(long requestId, boolean accountCreated, String nodeId,
            Duration heartbeatInterval) {
        return builder(requestId)
                .setLoginResult(LoginResult.newBuilder()
                        .setOk(true)
                        .setAccountCreated(accountCreated)
                        .setNodeId(nodeId)
                        .setHeartbeatIntervalMillis(heartbeatInterval.toMillis()))
                .build();
    }

    /** A refused login, with one line saying why. */
    public static Envelope loginRefused(long requestId, String reason) {
        return builder(requestId)
                .setLoginResult(LoginResult.newBuilder().setOk(false).setReason(reason))
                .build();
    }

    public static Envelope chat(long requestId, ChatMessage message) {
        return builder(requestId).setChat(message.toProto()).build();
    }

    public static Envelope notice(long requestId, ServerNotice.Kind kind, String messageId, String text,
            int sessions) {
        return builder(requestId)
                .setServerNotice(ServerNotice.newBuilder()
                        .setKind(kind)
                        .setMessageId(messageId)
                        .setText(text)
                        .setSessions(sessions))
                .build();
    }

    /**
     * An error reply.
     *
     * @param closing true when the sender closes the connection right after it
     */
    public static Envelope error(long requestId, ErrorReply.Code code, String message, boolean closing) {
        return builder(requestId)
                .setError(ErrorReply.newBuilder().setCode(code).setMessage(message).setClosing(closing))
                .build();
    }

    public static Envelope ping(long requestId, long clientTimeMillis) {
        return builder(requestId)
                .setPing(Ping.newBuilder().setClientTimeMillis(clientTimeMillis))
                .build();
    }

    /** The answer to {@code ping}, echoing its request id and client time. */
    public static Envelope pong(Envelope ping, long serverTimeMillis) {
        return builder(ping.getRequestId())
                .setPong(Pong.newBuilder()
                        .setClientTimeMillis(ping.getPing().getClientTimeMillis())
                        .setServerTimeMillis(serverTimeMillis))
                .build();
    }

    public static Envelope onlineUsersRequest(long requestId) {
        return builder(requestId).setOnlineUsersRequest(OnlineUsersRequest.getDefaultInstance()).build();
    }

    public static Envelope onlineUsersReply(long requestId, Collection<String> userNames) {
        return builder(requestId)
                .setOnlineUsersReply(OnlineUsersReply.newBuilder().addAllUserNames(userNames))
                .build();
    }
}
