package dev.cim.e2e.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP proxy on loopback between clients and a server, that the test can cut: {@link #cutAll()}
 * closes every connection through it at once, as a network that drops would (both ends see a reset).
 */
final class TcpProxy implements AutoCloseable {

    private final ServerSocket listening;
    private final int target;
    private final List<Socket> open = new ArrayList<>();
    private volatile boolean closed;

    TcpProxy(int target) throws IOException {
        this.target = target;
        this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "proxy-accept-" + listening.getLocalPort());
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return listening.getLocalPort();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listening.accept();
                Socket server = new Socket();
                server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target), 5000);
                synchronized (open) {
                    open.add(client);
                    open.add(server);
                }
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                }
            } catch (IOException e) {
                // cut, or closed by an end
            } finally {
                quietly(from);
                quietly(to);
            }
        }, "proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    /** Cuts every connection through the proxy; returns how many sockets were closed. */
    int cutAll() {
        List<Socket> cutting;
        synchronized (open) {
            cutting = new ArrayList<>(open);
            open.clear();
        }
        for (Socket socket : cutting) {
            try {
                socket.setSoLinger(true, 0); // a reset, not a polite end
            } catch (IOException ignored) {
                // closing anyway
            }
            quietly(socket);
        }
        return cutting.size();
    }

    private static void quietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listening.close();
        cutAll();
    }
}
