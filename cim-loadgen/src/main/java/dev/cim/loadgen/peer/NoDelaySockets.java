package dev.cim.loadgen.peer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import javax.net.SocketFactory;

/**
 * Plain sockets with TCP_NODELAY, for the peers' client libraries, which connect them themselves
 * (Paho and Smack take a {@link SocketFactory}) and would leave Nagle's delay on: the cim clients
 * have TCP_NODELAY (Netty's default), and a small message held back for an acknowledgement would be
 * measured as the peer's latency.
 */
public final class NoDelaySockets extends SocketFactory {

    public static final NoDelaySockets INSTANCE = new NoDelaySockets();

    private NoDelaySockets() {
    }

    @Override
    public Socket createSocket() throws SocketException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        return socket;
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return noDelay(new Socket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress local, int localPort) throws IOException {
        return noDelay(new Socket(host, port, local, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return noDelay(new Socket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress host, int port, InetAddress local, int localPort) throws IOException {
        return noDelay(new Socket(host, port, local, localPort));
    }

    private static Socket noDelay(Socket socket) throws SocketException {
        socket.setTcpNoDelay(true);
        return socket;
    }
}
