package dev.cim.server.session;

import dev.cim.common.protocol.proto.Envelope;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.util.Objects;

/**
 * One logged-in connection: a user may have several (one per terminal).
 *
 * @param id      unique on this node, for logs
 * @param user    the logged-in user name
 * @param channel the connection
 */
public record Session(long id, String user, Channel channel) {

    public Session {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(channel, "channel");
    }

    /** Writes and flushes {@code envelope}; safe from any thread. */
    public ChannelFuture send(Envelope envelope) {
        return channel.writeAndFlush(envelope);
    }

    @Override
    public String toString() {
        return user + "#" + id + "@" + channel.remoteAddress();
    }
}
