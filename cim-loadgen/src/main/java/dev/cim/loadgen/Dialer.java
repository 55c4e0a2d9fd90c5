package dev.cim.loadgen;

import dev.cim.client.core.ClientTls;
import dev.cim.common.net.NettyTransport;
import dev.cim.common.wheel.DelayScheduler;
import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * How every client of a run reaches the server: the one event loop group they share, its
 * transport, the one delay wheel for their scheduled messages, and the server's address with TLS
 * and WebSocket or not. Each part opens its {@link ClientPool}s from it.
 *
 * @param servers          the chat ports (one per node), or the web ports for {@code webSocket}
 * @param tls              TLS for every connection (one context shared by all), or null for plaintext
 * @param webSocket        true to speak the protocol in binary WebSocket messages on the web port's
 *                         {@code /ws}, false for the chat port's length-prefixed frames
 * @param perSourceAddress connections per loopback source address before the next
 */
record Dialer(EventLoopGroup group, NettyTransport transport, DelayScheduler wheel, List<InetSocketAddress> servers,
        ClientTls tls, boolean webSocket, int perSourceAddress) {

    Dialer(EventLoopGroup group, NettyTransport transport, DelayScheduler wheel, InetSocketAddress server,
            ClientTls tls, boolean webSocket, int perSourceAddress) {
        this(group, transport, wheel, List.of(server), tls, webSocket, perSourceAddress);
    }

    Dialer {
        servers = List.copyOf(servers);
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("servers: none (expected: at least one address)");
        }
    }

    /** The first server's address. */
    InetSocketAddress server() {
        return servers.get(0);
    }

    /** Where client {@code i} connects: the servers in turn, so users spread evenly over the nodes. */
    InetSocketAddress serverFor(int i) {
        return servers.get(Math.floorMod(i, servers.size()));
    }

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
