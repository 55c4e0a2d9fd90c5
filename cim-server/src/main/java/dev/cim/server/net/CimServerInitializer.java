package dev.cim.server.net;

import dev.cim.common.protocol.CimProtocolCodec;
import dev.cim.server.chat.ChatService;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;

/**
 * Builds the pipeline of each accepted connection:
 * <pre>
 *  bytes in                                                       Envelopes out
 *    |                                                                  ^
 *  [address]   AddressGate: at most so many connections, and so many not logged in, per IP address
 *  [tls]       on a TLS port only: TlsOnlyGate, which becomes the SslHandler or refuses plaintext
 *  [first]     LoginFrameLimit: the first frame (the login) must be small; then it leaves
 *  [codec]     CimProtocolCodec: length-prefixed frames &lt;-&gt; Envelopes, typed frame errors; what is
 *              written in one pass of the event loop leaves in one buffer and one flush
 *  [deadline]  ReadDeadline: closes a connection silent for the idle timeout, or not logged in in time
 *  [login]     LoginGate: only a Login passes, and on a full node it is sent elsewhere; replaced at login by
 *  [session]   SessionHandler: every frame to the chat core, and the connection's end
 *  [errors]    ProtocolErrorHandler: any exception -&gt; logged, error frame, close
 * </pre>
 * Everything runs on the connection's event loop; the chat core does blocking work elsewhere.
 * Before login a connection can make the server hold little: one small frame, for at most the
 * login timeout, and only so many such connections per address.
 * The TLS handler is next to the socket (after the address gate, which refuses before any
 * handshake work), so that the codec's one flush per pass
 * becomes one TLS wrap of everything written in that pass. Its handshake must finish within the
 * login timeout, like the login itself: the deadline counts from the connection's acceptance.
 *
 * <p>It takes any {@link Channel}, not only a socket's, so that the whole pipeline can be tested on
 * an {@code EmbeddedChannel}.
 */
final class CimServerInitializer extends ChannelInitializer<Channel> {

    private final ChatService chat;
    private final ChannelGroup channels;
    private final CimServer.Settings settings;
    private final CimProtocolCodec codec;
    private final AddressGate.Counts addresses;
    private final NodeCapacity capacity;
    private final ProtocolErrorHandler errors = new ProtocolErrorHandler();

    /**
     * @param channels every open connection is added here, so shutdown can reach them all
     * @param capacity the node's logged-in connections, counted with the web port's
     */
    CimServerInitializer(ChatService chat, ChannelGroup channels, CimServer.Settings settings, NodeCapacity capacity) {
        this.chat = chat;
        this.channels = channels;
        this.settings = settings;
        this.codec = new CimProtocolCodec(settings.maxFrameLength());
        this.addresses = new AddressGate.Counts(settings.connectionsPerAddress(), settings.unauthenticatedPerAddress());
        this.capacity = capacity;
    }

    /** The counts of connections per address, which the web port shares. */
    AddressGate.Counts addresses() {
        return addresses;
    }

    /** Connections not logged in yet. */
    int unauthenticated() {
        return addresses.unauthenticated();
    }

    @Override
    protected void initChannel(Channel ch) {
        channels.add(ch);
        ChannelPipeline pipeline = ch.pipeline();
        pipeline.addLast(AddressGate.NAME, new AddressGate(addresses));
        if (settings.tls() != null) {
            pipeline.addLast(TlsOnlyGate.NAME, new TlsOnlyGate(settings.tls(), settings.loginTimeout()));
        }
        pipeline.addLast(LoginFrameLimit.NAME, new LoginFrameLimit(settings.maxLoginFrameLength()));
        codec.install(pipeline);
        ReadDeadline deadline = new ReadDeadline(settings.idleTimeout(), settings.loginTimeout());
        pipeline.addLast("deadline", deadline);
        pipeline.addLast(LoginGate.NAME, new LoginGate(chat, deadline, capacity));
        pipeline.addLast("errors", errors);
    }
}
