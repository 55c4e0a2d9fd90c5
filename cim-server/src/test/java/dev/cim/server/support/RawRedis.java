package dev.cim.server.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** One Redis command over a plain socket, for checking Redis from outside the server under test. */
public final class RawRedis {

    private RawRedis() {
    }

    /** Sends {@code words} as an inline command and returns the first reply line, e.g. {@code :1}. */
    public static String command(int port, String... words) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write((String.join(" ", words) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) != -1 && c != '\r'; ) {
                line.append((char) c);
            }
            return line.toString();
        }
    }
}
