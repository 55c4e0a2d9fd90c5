package dev.cim.loadgen;

import dev.cim.client.core.ClientTls;
import dev.cim.common.net.NettyTransport;
import dev.cim.common.wheel.DelayScheduler;
import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;

/**
 * How every client of a run reaches the server: the one event loop group they share, its
 * transport, the one delay wheel for their scheduled messages, and the server's address with TLS
 * and WebSocket or not. Each part opens its {@link ClientPool}s from it.
 *
 * @param server           the chat port, or the web port for {@code webSocket}
 * @param tls              TLS for every connection (one context shared by all), or null for plaintext
 * @param webSocket        true to speak the protocol in binary WebSocket messages on the web port's
 *                         {@code /ws}, false for the chat port's length-prefixed frames
 * @param perSourceAddress connections per loopback source address before the next
 */
record Dialer(EventLoopGroup group, NettyTransport transport, DelayScheduler wheel, InetSocketAddress server,
        ClientTls tls, boolean webSocket, int perSourceAddress) {

    /** The same, to another address (another server, or the same one's other port). */
    Dialer to(InetSocketAddress otherServer, ClientTls otherTls, boolean otherWebSocket) {
        return new Dialer(group, transport, wheel, otherServer, otherTls, otherWebSocket, perSourceAddress);
    }

    /** A pool of busy clients (the kernel's socket buffers) from source address 127.0.0.2 on. */
    ClientPool pool() {
        return new ClientPool(this, false, 2);
    }

    /** "TLS, WebSocket": how the connections are made, for the report. */
    String describe() {
        return (tls != null ? "TLS (" + tls + ")" : "plaintext") + (webSocket ? ", WebSocket (/ws, cim.proto)" : ", TCP");
    }
}
