package dev.cim.server.net;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.ErrorReply;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.AttributeKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the handlers name a connection in logs and hang up on it: every forced close is logged with
 * its reason and, while the peer still listens, told to it in a closing {@link ErrorReply}.
 */
final class Connections {

    /** The user logged in on a channel; set by the {@link LoginHandler}, for logs. */
    static final AttributeKey<String> USER = AttributeKey.valueOf("cim.user");

    private static final Logger log = LoggerFactory.getLogger(CimServer.class);

    private Connections() {
    }

    /** "{@code /127.0.0.1:51234}", with " ({@code alice})" once logged in. */
    static String describe(Channel channel) {
        String user = channel.attr(USER).get();
        return channel.remoteAddress() + (user == null ? "" : " (" + user + ")");
    }

    /**
     * Logs why, sends a closing error echoing {@code requestId}, then closes.
     *
     * @param reason one line for the log and for the peer
     */
    static void closeWithError(Channel channel, long requestId, ErrorReply.Code code, String reason) {
        log.warn("Closing {}: {}", describe(channel), reason);
        if (channel.isActive()) {
            channel.writeAndFlush(Envelopes.error(requestId, code, reason, true))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            channel.close();
        }
    }
}
