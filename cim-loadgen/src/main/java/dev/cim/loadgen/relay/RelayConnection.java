package dev.cim.loadgen.relay;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.LoginResult;
import dev.cim.common.protocol.proto.Receipts;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.util.ArrayDeque;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * One connection of the {@link BareRelay}: its login, its sends passed on, the deliveries and
 * receipts written to it. Everything of a connection runs on its event loop; another connection's
 * loop hands work over with {@code execute}, and what is written in one turn of the loop leaves
 * with one flush, as in the server.
 */
final class RelayConnection extends SimpleChannelInboundHandler<Envelope> {

    private static final long HEARTBEAT_MILLIS = 45_000; // as the server's default

    /** A send delivered here and not yet acknowledged: whom to answer. */
    private record Unanswered(RelayConnection sender, long sequence) {
    }

    private final Map<String, RelayConnection> users;
    private final boolean acked;
    private ChannelHandlerContext ctx;
    private String user;
    private String originHex;
    /** Receipts to send with the next flush: request ids, each delivered to one session. */
    private Receipts.Builder receipts;
    private boolean flushQueued;
    /** With acks: the sends delivered here and not acknowledged, oldest first. */
    private final ArrayDeque<Unanswered> unacknowledged = new ArrayDeque<>();
    private long delivered;
    private long acknowledged;

    RelayConnection(Map<String, RelayConnection> users, boolean acked) {
        this.users = users;
        this.acked = acked;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Envelope envelope) {
        switch (envelope.getKindCase()) {
            case LOGIN -> login(envelope);
            case SEND -> send(envelope);
            case ACK -> ack(envelope.getAck().getReceived());
            case PING -> write(Envelopes.pong(envelope, System.currentTimeMillis()));
            case LIST_SCHEDULED -> write(Envelopes.scheduledList(envelope.getRequestId(), List.of(), false, 0));
            default -> write(Envelopes.error(envelope.getRequestId(), ErrorReply.Code.BAD_REQUEST,
                    "the relay passes private messages only (got " + envelope.getKindCase() + ")", false));
        }
    }

    private void login(Envelope envelope) {
        user = envelope.getLogin().getUserName();
        originHex = HexFormat.of().toHexDigits(envelope.getLogin().getOrigin());
        users.put(user, this);
        write(Envelopes.loginAccepted(LoginResult.newBuilder().setUserName(user).setNodeId("relay")
                .setHeartbeatIntervalMillis(HEARTBEAT_MILLIS)));
    }

    private void send(Envelope envelope) {
        long sequence = envelope.getRequestId();
        RelayConnection to = users.get(envelope.getSend().getRecipient());
        if (user == null || to == null) {
            write(Envelopes.error(sequence, ErrorReply.Code.BAD_REQUEST,
                    user == null ? "log in first" : "not connected (the relay stores nothing)", false));
            return;
        }
        Chat chat = Chat.newBuilder().setId(originHex + "-" + sequence).setSender(user)
                .setRecipient(envelope.getSend().getRecipient()).setText(envelope.getSend().getText())
                .setSentAtMillis(System.currentTimeMillis()).build();
        Envelope delivery = Envelopes.delivery(chat);
        if (to.ctx.executor().inEventLoop()) {
            to.deliver(delivery, this, sequence);
        } else {
            to.ctx.executor().execute(() -> to.deliver(delivery, this, sequence));
        }
        if (!acked) {
            receipt(sequence); // handed over: answered now
        }
    }

    /** On this connection's loop: a delivery for it, from {@code sender}'s send {@code sequence}. */
    private void deliver(Envelope delivery, RelayConnection sender, long sequence) {
        write(delivery);
        delivered++;
        if (acked) {
            unacknowledged.add(new Unanswered(sender, sequence));
        }
    }

    /** This connection has received {@code received} deliveries in all: answers the sends they were. */
    private void ack(long received) {
        if (!acked) {
            return;
        }
        long upTo = Math.min(received, delivered);
        while (acknowledged < upTo) {
            Unanswered send = unacknowledged.poll();
            acknowledged++;
            RelayConnection sender = send.sender();
            long sequence = send.sequence();
            if (sender.ctx.executor().inEventLoop()) {
                sender.receipt(sequence);
            } else {
                sender.ctx.executor().execute(() -> sender.receipt(sequence));
            }
        }
    }

    /** On this connection's loop: send {@code sequence} reached one session. */
    private void receipt(long sequence) {
        if (receipts == null) {
            receipts = Receipts.newBuilder();
        }
        receipts.addRequestIds(sequence).addSessions(1);
        queueFlush();
    }

    private void write(Envelope envelope) {
        ctx.write(envelope, ctx.voidPromise());
        queueFlush();
    }

    /** One flush for everything written in this turn of the loop, after the tasks queued before it. */
    private void queueFlush() {
        if (!flushQueued) {
            flushQueued = true;
            ctx.executor().execute(this::flush);
        }
    }

    private void flush() {
        flushQueued = false;
        if (receipts != null) {
            ctx.write(Envelopes.receipts(receipts.build()), ctx.voidPromise());
            receipts = null;
        }
        ctx.flush();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (user != null) {
            users.remove(user, this);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
