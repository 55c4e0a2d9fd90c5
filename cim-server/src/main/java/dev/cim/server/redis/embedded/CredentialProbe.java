package dev.cim.server.redis.embedded;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.springframework.core.env.Environment;

/**
 * Asks a plaintext, standalone Redis what it answers to the configured credentials, in one
 * {@code AUTH} over a socket of its own: for a start-up that failed, to tell a refused password from
 * an unreachable Redis when the client library's error does not say.
 */
final class CredentialProbe {

    private static final int TIMEOUT_MILLIS = 1000;

    private CredentialProbe() {
    }

    /**
     * Redis' one-line answer to {@code AUTH} with the credentials in {@code environment}; null when
     * there is no password to check, Redis speaks TLS or is a cluster, or it cannot be asked.
     */
    static String answer(Environment environment) {
        String password = environment.getProperty("spring.data.redis.password");
        if (password == null || password.isEmpty()
                || environment.getProperty("spring.data.redis.ssl.enabled", Boolean.class, false)
                || environment.getProperty("spring.data.redis.ssl.bundle") != null
                || environment.getProperty("spring.data.redis.cluster.nodes") != null) {
            return null;
        }
        String host = environment.getProperty("spring.data.redis.host", "localhost");
        int port = environment.getProperty("spring.data.redis.port", Integer.class, 6379);
        String username = environment.getProperty("spring.data.redis.username");
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(username == null || username.isEmpty() ? command("AUTH", password)
                    : command("AUTH", username, password));
            out.flush();
            String line = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            return line == null ? null : line.startsWith("-") ? line.substring(1) : line;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static byte[] command(String... words) {
        StringBuilder resp = new StringBuilder("*").append(words.length).append("\r\n");
        for (String word : words) {
            resp.append('$').append(word.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(word).append("\r\n");
        }
        return resp.toString().getBytes(StandardCharsets.UTF_8);
    }
}
