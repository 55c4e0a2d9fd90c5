package dev.cim.client.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.client.command.Command.Recipient;
import dev.cim.client.console.ChatView;
import dev.cim.client.console.Console;
import dev.cim.client.delay.OutgoingChat;
import dev.cim.common.protocol.CimProtocolCodec;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ServerNotice;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The connection against a scripted server on loopback TCP: logins, receipts and dropped connections. */
class ServerConnectionTest {

    private final EventLoopGroup serverGroup = new NioEventLoopGroup(1);
    private final ChannelGroup accepted = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final BlockingQueue<Envelope> received = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> printed = new LinkedBlockingQueue<>();
    private volatile boolean acknowledge = true;
    private volatile boolean refuseLogin;
    private ServerConnection connection;

    private int startServer() throws InterruptedException {
        Channel server = new ServerBootstrap().group(serverGroup).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        accepted.add(ch);
                        new CimProtocolCodec().install(ch.pipeline());
                        ch.pipeline().addLast(new SimpleChannelInboundHandler<Envelope>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, Envelope envelope) {
                                // Read the script before the test can see this frame and change it.
                                boolean refuse = refuseLogin;
                                boolean ack = acknowledge;
                                received.add(envelope);
                                if (envelope.hasLoginRequest()) {
                                    ctx.writeAndFlush(refuse
                                            ? Envelopes.loginRefused(envelope.getRequestId(), "wrong password")
                                            : Envelopes.loginAccepted(envelope.getRequestId(), false, "test", Duration.ofSeconds(10)));
                                } else if (envelope.hasChat() && ack) {
                                    ctx.writeAndFlush(Envelopes.notice(envelope.getRequestId(), ServerNotice.Kind.DELIVERED, "m", "ok", 1));
                                }
                            }
                        });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    private ServerConnection connectTo(int port) {
        Console console = new Console() {
            @Override
            public String readLine() {
                return null;
            }

            @Override
            public void print(String line) {
                printed.add(line);
            }

            @Override
            public void close() {
            }
        };
        connection = new ServerConnection("127.0.0.1", port, "alice", "pw", new ChatView(console, ZoneOffset.UTC),
                Duration.ofMillis(20), Duration.ofMillis(100));
        return connection;
    }

    @AfterEach
    void stop() {
        if (connection != null) {
            connection.close();
        }
        serverGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void aMessageSentBeforeTheLogin_isHeldAndSentOnceLoggedIn() throws Exception {
        ServerConnection client = connectTo(startServer());
        client.send(OutgoingChat.now(Recipient.user("bob"), "typed early"));

        assertThat(client.connect().get(10, TimeUnit.SECONDS).accepted()).isTrue();

        assertThat(next(Envelope::hasLoginRequest).getLoginRequest().getUserName()).isEqualTo("alice");
        Envelope chat = next(Envelope::hasChat);
        assertThat(chat.getChat().getText()).isEqualTo("typed early");
        assertThat(chat.getChat().getRecipient()).isEqualTo("bob");
        assertThat(client.awaitAnswered(Duration.ofSeconds(10))).isZero();
    }

    @Test
    void aMessageTheServerNeverConfirmed_isSentAgainAfterReconnecting() throws Exception {
        ServerConnection client = connectTo(startServer());
        client.connect().get(10, TimeUnit.SECONDS);
        acknowledge = false;

        client.send(OutgoingChat.now(Recipient.EVERYONE, "lost with the connection?"));
        assertThat(next(Envelope::hasChat).getChat().getText()).isEqualTo("lost with the connection?");
        acknowledge = true;
        accepted.close().sync();

        next(Envelope::hasLoginRequest); // logged in again after the backoff
        assertThat(next(Envelope::hasChat).getChat().getText()).isEqualTo("lost with the connection?");
        assertThat(client.awaitAnswered(Duration.ofSeconds(10))).isZero();
        assertThat(printed).anyMatch(line -> line.startsWith("lost the connection to the server"));
    }

    @Test
    void aRefusedLogin_completesTheFirstLoginAsRefusedWithTheReason() throws Exception {
        refuseLogin = true;
        ServerConnection client = connectTo(startServer());

        ServerConnection.LoginOutcome outcome = client.connect().get(10, TimeUnit.SECONDS);

        assertThat(outcome.accepted()).isFalse();
        assertThat(outcome.reason()).isEqualTo("wrong password");
        assertThat(printed).contains("error: login refused: wrong password");
    }

    @Test
    void aDelayedMessage_carriesTheDelayAskedAndItsDueTime() throws Exception {
        ServerConnection client = connectTo(startServer());
        client.connect().get(10, TimeUnit.SECONDS);
        java.time.Instant due = java.time.Instant.parse("2026-11-22T10:00:00Z");

        client.send(new OutgoingChat(Recipient.user("bob"), "later", Duration.ofSeconds(90), due));

        Envelope chat = next(Envelope::hasChat);
        assertThat(chat.getChat().getDelay().getRequestedMillis()).isEqualTo(90_000);
        assertThat(chat.getChat().getDelay().getDueAtMillis()).isEqualTo(due.toEpochMilli());
    }

    private Envelope next(java.util.function.Predicate<Envelope> kind) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            Envelope envelope = received.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            assertThat(envelope).as("a matching frame within 10 s; the client printed %s", printed).isNotNull();
            if (kind.test(envelope)) {
                return envelope;
            }
        }
    }
}
