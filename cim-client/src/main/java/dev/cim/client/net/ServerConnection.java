package dev.cim.client.net;

import dev.cim.client.console.ChatView;
import dev.cim.client.delay.ChatSender;
import dev.cim.client.delay.OutgoingChat;
import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.CimProtocolCodec;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The client's one connection to the server. It connects, logs in, pings when idle, and when the
 * connection is lost it says so and reconnects with exponential backoff, logging in again.
 *
 * <h3>Nothing sent is lost</h3>
 * Every chat message gets a request id and stays in {@code unacknowledged} until the server's
 * receipt (or refusal) for that id arrives. While disconnected, new messages wait in the
 * {@code outbox}. After each login the unacknowledged ones are sent again, then the outbox, in the
 * order they were sent. A message whose receipt was lost with the connection may therefore arrive
 * twice; none is dropped.
 */
public final class ServerConnection implements ChatSender, AutoCloseable {

    /** The result of the first login: accepted, or refused with the server's reason. */
    public record LoginOutcome(boolean accepted, String reason) {
    }

    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final ChatView view;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("cim-client-io", true));
    private final Bootstrap bootstrap;
    private final CompletableFuture<LoginOutcome> firstLogin = new CompletableFuture<>();

    private final Object lock = new Object();
    /** The logged-in channel, or null. Guarded by {@link #lock}. */
    private Channel channel;
    private long lastRequestId;
    private final Map<Long, Envelope> unacknowledged = new LinkedHashMap<>();
    private final Deque<Envelope> outbox = new ArrayDeque<>();
    private Duration backoff;
    private volatile boolean closing;

    public ServerConnection(String host, int port, String user, String password, ChatView view,
            Duration initialBackoff, Duration maxBackoff) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.view = view;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.backoff = initialBackoff;
        ServerConnection connection = this;
        this.bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(io.netty.channel.ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        new CimProtocolCodec().install(ch.pipeline());
                        // Pings after 5 s of not writing until the server says its own interval.
                        ch.pipeline().addLast(ServerHandler.IDLE, new IdleStateHandler(15, 5, 0, TimeUnit.SECONDS));
                        ch.pipeline().addLast(new ServerHandler(connection, view));
                    }
                });
    }

    /** Starts connecting; the future completes with the first login's outcome. */
    public CompletableFuture<LoginOutcome> connect() {
        view.info("connecting to " + host + ":" + port + " as " + user + " ...");
        attempt();
        return firstLogin;
    }

    private void attempt() {
        if (closing) {
            return;
        }
        bootstrap.connect(host, port).addListener((ChannelFutureListener) future -> {
            if (future.isSuccess()) {
                future.channel().writeAndFlush(Envelopes.loginRequest(0, user, password));
            } else {
                retryLater("cannot reach the server at " + host + ":" + port + " ("
                        + rootMessage(future.cause()) + ")");
            }
        });
    }

    private void retryLater(String why) {
        if (closing) {
            return;
        }
        Duration wait;
        synchronized (lock) {
            wait = backoff;
            Duration doubled = backoff.multipliedBy(2);
            backoff = doubled.compareTo(maxBackoff) > 0 ? maxBackoff : doubled;
        }
        view.info(why + "; reconnecting in " + wait.toMillis() + " ms");
        group.schedule(this::attempt, wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    void loggedIn(Channel ch, boolean accountCreated, Duration heartbeat) {
        List<Envelope> resend = new ArrayList<>();
        synchronized (lock) {
            channel = ch;
            backoff = initialBackoff;
            resend.addAll(unacknowledged.values());
            for (Envelope waiting; (waiting = outbox.poll()) != null; ) {
                unacknowledged.put(waiting.getRequestId(), waiting);
                resend.add(waiting);
            }
            resend.forEach(ch::write);
            ch.flush();
        }
        if (!heartbeat.isZero()) {
            long interval = heartbeat.toMillis();
            ch.pipeline().replace(ServerHandler.IDLE, ServerHandler.IDLE,
                    new IdleStateHandler(interval * 3, interval, 0, TimeUnit.MILLISECONDS));
        }
        view.info("logged in as " + user + (accountCreated ? " (new account)" : "")
                + (resend.isEmpty() ? "" : "; sending " + resend.size() + " held messages")
                + ". Type :help for commands.");
        firstLogin.complete(new LoginOutcome(true, ""));
    }

    void loginRefused(String reason) {
        closing = true; // a wrong password will not be right next time either
        view.error("login refused: " + reason);
        firstLogin.complete(new LoginOutcome(false, reason));
    }

    void disconnected(Channel ch) {
        synchronized (lock) {
            if (channel == ch) {
                channel = null;
            }
        }
        if (!closing && firstLogin.isDone()) {
            retryLater("lost the connection to the server");
        } else if (!closing) {
            retryLater("the server closed the connection before login");
        }
    }

    /** The server answered request {@code requestId} (a receipt or a refusal): it need not be sent again. */
    void answered(long requestId) {
        synchronized (lock) {
            unacknowledged.remove(requestId);
            lock.notifyAll();
        }
    }

    @Override
    public void send(OutgoingChat chat) {
        String recipient = chat.to().isEveryone() ? ChatMessage.EVERYONE : chat.to().user();
        ChatMessage message = chat.isDelayed()
                ? ChatMessage.outgoingDelayed(recipient, chat.text(), new ChatMessage.Delay(chat.delay(), chat.dueAt()))
                : ChatMessage.outgoing(recipient, chat.text());
        synchronized (lock) {
            Envelope envelope = Envelopes.chat(++lastRequestId, message);
            if (channel == null) {
                outbox.add(envelope);
                view.info("(not connected: the message will be sent when the connection is back)");
                return;
            }
            unacknowledged.put(envelope.getRequestId(), envelope);
            channel.writeAndFlush(envelope);
        }
    }

    /** Asks for the list of online users; the answer is shown when it comes. */
    public void requestOnlineUsers() {
        synchronized (lock) {
            if (channel == null) {
                view.error("not connected to the server; try again when the connection is back");
                return;
            }
            channel.writeAndFlush(Envelopes.onlineUsersRequest(++lastRequestId));
        }
    }

    /**
     * Waits until every message sent so far has been answered by the server, or {@code timeout}.
     *
     * @return the number still unanswered
     */
    public int awaitAnswered(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (unacknowledged.size() + outbox.size() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
            return unacknowledged.size() + outbox.size();
        }
    }

    @Override
    public void close() {
        closing = true;
        Channel ch;
        synchronized (lock) {
            ch = channel;
            channel = null;
        }
        if (ch != null) {
            ch.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    }
}
