package dev.cim.server.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One Redis command over a plain socket, for checking Redis from outside the server under test, as
 * any other process of the machine could.
 */
public final class RawRedis {

    private RawRedis() {
    }

    /**
     * Sends {@code words} as an inline command, without authenticating, and returns the first reply
     * line, e.g. {@code :1} or {@code -NOAUTH Authentication required.}.
     */
    public static String command(int port, String... words) throws IOException {
        try (Socket socket = connect(port)) {
            send(socket, String.join(" ", words));
            return readLine(socket.getInputStream());
        }
    }

    /**
     * Authenticates with {@code password} (as the default user), then sends {@code words} and returns
     * the first line of its reply.
     *
     * @throws IllegalStateException if Redis does not accept the password
     */
    public static String authenticated(int port, String password, String... words) throws IOException {
        try (Socket socket = connect(port)) {
            send(socket, "AUTH " + password);
            InputStream in = socket.getInputStream();
            String auth = readLine(in);
            if (!auth.equals("+OK")) {
                throw new IllegalStateException("AUTH was refused: " + auth);
            }
            send(socket, String.join(" ", words));
            return readLine(in);
        }
    }

    /** Like {@link #authenticated}, for a command whose reply is one bulk string: returns its text. */
    public static String authenticatedBulk(int port, String password, String... words) throws IOException {
        try (Socket socket = connect(port)) {
            send(socket, "AUTH " + password);
            InputStream in = socket.getInputStream();
            String auth = readLine(in);
            if (!auth.equals("+OK")) {
                throw new IllegalStateException("AUTH was refused: " + auth);
            }
            send(socket, String.join(" ", words));
            String header = readLine(in);
            if (!header.startsWith("$")) {
                throw new IllegalStateException("expected a bulk string, got " + header);
            }
            byte[] body = in.readNBytes(Integer.parseInt(header.substring(1)));
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(5000);
        return socket;
    }

    private static void send(Socket socket, String line) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** One line up to CRLF, without it; what was read before the end of the stream if it ends first. */
    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c; (c = in.read()) != -1; ) {
            if (c == '\r') {
                in.read(); // the \n
                break;
            }
            line.append((char) c);
        }
        return line.toString();
    }
}
