package dev.cim.common.protocol;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.cim.common.protocol.proto.AccountSettings;
import dev.cim.common.protocol.proto.Ack;
import dev.cim.common.protocol.proto.Cancel;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.Delivery;
import dev.cim.common.protocol.proto.Edit;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.GoAway;
import dev.cim.common.protocol.proto.ListScheduled;
import dev.cim.common.protocol.proto.Login;
import dev.cim.common.protocol.proto.LoginResult;
import dev.cim.common.protocol.proto.OnlineUsersReply;
import dev.cim.common.protocol.proto.OnlineUsersRequest;
import dev.cim.common.protocol.proto.Ping;
import dev.cim.common.protocol.proto.Pong;
import dev.cim.common.protocol.proto.Receipt;
import dev.cim.common.protocol.proto.Receipts;
import dev.cim.common.protocol.proto.Release;
import dev.cim.common.protocol.proto.Schedule;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.ScheduledChange;
import dev.cim.common.protocol.proto.ScheduledList;
import dev.cim.common.protocol.proto.Send;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.Collection;

/**
 * Builds every kind of {@link Envelope}, stamped with the {@link #PROTOCOL_VERSION}. The
 * {@code requestId} parameters are the correlation ids described in {@code cim.proto}: a client
 * numbers its requests within its origin (for a Send, the number is also the message's sequence)
 * and the server echoes the number on its direct answer; 0 means no correlation.
 */
public final class Envelopes {

    /**
     * The protocol version this code speaks; see the compatibility note in {@code cim.proto}. 3 since
     * a scheduled message's change may say FAILED (a client of version 2 would read it as SCHEDULED);
     * 4 since delivered messages may be answered by a {@link Receipts} frame for several at once (a
     * client of version 3 would leave them unanswered).
     */
    public static final int PROTOCOL_VERSION = 5;

    private Envelopes() {
    }

    /**
     * The Envelope in {@code payload}'s readable bytes, which are left unread. Parsed from one copy
     * of them: protobuf decodes a direct buffer's view (Netty's {@code nioBuffer}) by copying it into
     * an array anyway, after two or three {@code ByteBuffer} objects; a heap buffer with its array to
     * itself is not copied.
     *
     * @param what what the payload is, for the error: "frame", "message"
     * @throws CorruptedFrameException if the bytes are not an Envelope
     */
    public static Envelope parse(ByteBuf payload, String what) {
        try {
            return Envelope.parser().parseFrom(ByteBufUtil.getBytes(payload, payload.readerIndex(),
                    payload.readableBytes(), false));
        } catch (InvalidProtocolBufferException e) {
            throw new CorruptedFrameException(what + " of " + payload.readableBytes()
                    + " bytes is not a cim Envelope: " + e.getMessage(), e);
        }
    }

    /**
     * {@code envelope}, as a peer received it, if this peer can handle it.
     *
     * @throws UnsupportedVersionException for another protocol version
     * @throws CorruptedFrameException for an Envelope without a message kind
     */
    public static Envelope received(Envelope envelope) {
        if (envelope.getVersion() != PROTOCOL_VERSION) {
            throw new UnsupportedVersionException(envelope.getVersion());
        }
        if (envelope.getKindCase() == Envelope.KindCase.KIND_NOT_SET) {
            throw new CorruptedFrameException("frame carries no message kind (expected one "
                    + "of the Envelope's oneof fields)");
        }
        return envelope;
    }

    /** A new builder with the version and request id set. */
    public static Envelope.Builder builder(long requestId) {
        return Envelope.newBuilder().setVersion(PROTOCOL_VERSION).setRequestId(requestId);
    }

    // Client to server.

    /** A login with a password, or with a session token when {@code token} is not empty. */
    public static Envelope login(String userName, String password, String token, long origin) {
        return builder(0).setLogin(Login.newBuilder()
                        .setUserName(userName)
                        .setPassword(password == null ? "" : password)
                        .setToken(token == null ? "" : token)
                        .setOrigin(origin))
                .build();
    }

    public static Envelope send(long sequence, String recipient, String text) {
        return builder(sequence).setSend(Send.newBuilder().setRecipient(recipient).setText(text)).build();
    }

    public static Envelope ack(long received) {
        return builder(0).setAck(Ack.newBuilder().setReceived(received)).build();
    }

    public static Envelope ping(long clientTimeMillis) {
        return builder(0).setPing(Ping.newBuilder().setClientTimeMillis(clientTimeMillis)).build();
    }

    public static Envelope onlineUsersRequest(long requestId) {
        return builder(requestId).setOnlineUsersRequest(OnlineUsersRequest.getDefaultInstance()).build();
    }

    public static Envelope schedule(long sequence, String recipient, String text, long dueAtMillis,
            long requestedMillis) {
        return builder(sequence).setSchedule(Schedule.newBuilder()
                        .setRecipient(recipient)
                        .setText(text)
                        .setDueAtMillis(dueAtMillis)
                        .setRequestedMillis(requestedMillis)
                        .build())
                .build();
    }

    /** Changes the text (unless empty) and the due time (unless 0) of scheduled message {@code id}. */
    public static Envelope edit(long requestId, String id, String text, long dueAtMillis, long requestedMillis) {
        return builder(requestId).setEdit(Edit.newBuilder()
                        .setId(id)
                        .setText(text == null ? "" : text)
                        .setDueAtMillis(dueAtMillis)
                        .setRequestedMillis(requestedMillis))
                .build();
    }

    public static Envelope cancel(long requestId, String id) {
        return builder(requestId).setCancel(Cancel.newBuilder().setId(id)).build();
    }

    public static Envelope release(long requestId, String id) {
        return builder(requestId).setRelease(Release.newBuilder().setId(id)).build();
    }

    /** Lists the scheduled messages due before {@code dueBeforeMillis}, or all with 0. */
    public static Envelope listScheduled(long requestId, long dueBeforeMillis) {
        return builder(requestId)
                .setListScheduled(ListScheduled.newBuilder().setDueBeforeMillis(dueBeforeMillis))
                .build();
    }

    // Server to client.

    public static Envelope loginAccepted(LoginResult.Builder result) {
        return builder(0).setLoginResult(result.setOk(true)).build();
    }

    /** A refused login, with one line saying why. */
    public static Envelope loginRefused(String reason) {
        return loginRefused(reason, 0);
    }

    /** A refused login that may succeed if tried again after {@code retryAfterMillis} (0: it will not). */
    public static Envelope loginRefused(String reason, long retryAfterMillis) {
        return builder(0).setLoginResult(LoginResult.newBuilder().setOk(false).setReason(reason)
                .setRetryAfterMillis(retryAfterMillis)).build();
    }

    public static Envelope receipt(long sequence, Receipt.Outcome outcome, String messageId, int sessions,
            String storedFor, boolean resend) {
        return receipt(sequence, outcome, ByteString.copyFromUtf8(messageId), sessions, storedFor, resend);
    }

    /**
     * A receipt whose message id is given as its UTF-8 bytes, as a {@link Chat} holds it once
     * serialized ({@link Chat#getIdBytes()}): the receipt then reuses them instead of encoding the id
     * again.
     */
    public static Envelope receipt(long sequence, Receipt.Outcome outcome, ByteString messageId, int sessions,
            String storedFor, boolean resend) {
        return builder(sequence).setReceipt(Receipt.newBuilder()
                        .setOutcome(outcome)
                        .setMessageIdBytes(messageId)
                        .setSessions(sessions)
                        .setStoredFor(storedFor == null ? "" : storedFor)
                        .setResend(resend))
                .build();
    }

    /** Receipts for several messages delivered, in one frame (its request id is 0). */
    public static Envelope receipts(Receipts receipts) {
        return builder(0).setReceipts(receipts).build();
    }

    /** A delivery of {@code chat}; one envelope may be written to any number of connections. */
    public static Envelope delivery(Chat chat) {
        return builder(0).setDelivery(Delivery.newBuilder().setChat(chat)).build();
    }

    /** The answer to {@code ping}. */
    public static Envelope pong(Envelope ping, long serverTimeMillis) {
        return builder(ping.getRequestId())
                .setPong(Pong.newBuilder()
                        .setClientTimeMillis(ping.getPing().getClientTimeMillis())
                        .setServerTimeMillis(serverTimeMillis))
                .build();
    }

    /** One frame of an online-users reply. */
    public static Envelope onlineUsersReply(long requestId, Collection<String> userNames, boolean more, int total) {
        return builder(requestId)
                .setOnlineUsersReply(OnlineUsersReply.newBuilder()
                        .addAllUserNames(userNames)
                        .setMore(more)
                        .setTotal(total))
                .build();
    }

    public static Envelope scheduledChange(long requestId, ScheduledChange.Kind kind, Scheduled message) {
        return scheduledChange(requestId, ScheduledChange.newBuilder().setKind(kind).setMessage(message).build());
    }

    /** A change to one of the user's scheduled messages, as built. */
    public static Envelope scheduledChange(long requestId, ScheduledChange change) {
        return builder(requestId).setScheduledChange(change).build();
    }

    /** Asks to change the account's settings (those set in {@code settings}). */
    public static Envelope setSettings(long requestId, AccountSettings settings) {
        return builder(requestId).setSetSettings(settings).build();
    }

    /** The account's settings: the answer to request {@code requestId}, or news (0). */
    public static Envelope settings(long requestId, AccountSettings settings) {
        return builder(requestId).setSettings(settings).build();
    }

    /** One frame of a scheduled-messages listing. */
    public static Envelope scheduledList(long requestId, Collection<Scheduled> messages, boolean more, int total) {
        return builder(requestId)
                .setScheduledList(ScheduledList.newBuilder()
                        .addAllMessages(messages)
                        .setMore(more)
                        .setTotal(total))
                .build();
    }

    /** Asks the client to reconnect, after a random wait of up to {@code spreadMillis}, preferably to {@code nodes}. */
    public static Envelope goAway(String reason, Collection<String> nodes, long spreadMillis) {
        return builder(0)
                .setGoAway(GoAway.newBuilder().setReason(reason).addAllNodes(nodes).setSpreadMillis(spreadMillis))
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

    /** A refusal for going too fast: try again after {@code retryAfterMillis}. */
    public static Envelope rateLimited(long requestId, String message, long retryAfterMillis) {
        return refusedFor(requestId, ErrorReply.Code.RATE_LIMITED, message, retryAfterMillis);
    }

    /** A refusal because the server's storage could not take it now: send it again after {@code retryAfterMillis}. */
    public static Envelope tryAgain(long requestId, String message, long retryAfterMillis) {
        return refusedFor(requestId, ErrorReply.Code.TRY_AGAIN, message, retryAfterMillis);
    }

    private static Envelope refusedFor(long requestId, ErrorReply.Code code, String message, long retryAfterMillis) {
        return builder(requestId)
                .setError(ErrorReply.newBuilder()
                        .setCode(code)
                        .setMessage(message)
                        .setRetryAfterMillis(retryAfterMillis))
                .build();
    }
}
