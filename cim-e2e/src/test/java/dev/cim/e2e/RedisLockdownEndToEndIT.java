package dev.cim.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.testkit.Ports;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The quick start's server jar, with its embedded Redis, as another process of the machine meets
 * that Redis: refused without the password (the attack of issue 12: read the hashes and inboxes,
 * forge relays, write files with {@code CONFIG SET dir}), and without {@code CONFIG} even with it.
 */
class RedisLockdownEndToEndIT {

    @Test
    void theEmbeddedRedisOfTheServerJar_refusesAnUnauthenticatedKeysStar() throws Exception {
        Path projectDir = Path.of(System.getProperty("cim.project.dir", "..")).toAbsolutePath().normalize();
        Path dataDir = Files.createTempDirectory("cim-e2e-lockdown-").resolve("redis");
        int redisPort = Ports.free();
        try (JavaProcess server = JavaProcess.start("cim-server", projectDir.resolve("cim-server/target/cim-server.jar"),
                List.of("--cim.server.port=" + Ports.free(),
                        "--management.server.port=" + Ports.free(),
                        "--cim.server.web.port=0",
                        "--spring.data.redis.port=" + redisPort,
                        "--cim.server.data-dir=" + dataDir))) {
            server.await("listening on", CimSystem.START);

            assertThat(command(redisPort, "KEYS *")).startsWith("-NOAUTH");
            assertThat(command(redisPort, "PUBLISH cim:bus:all forged")).startsWith("-NOAUTH");

            Path passwordFile = dataDir.resolve("redis.password");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(passwordFile))).isEqualTo("rw-------");
            String password = Files.readString(passwordFile).strip();
            assertThat(command(redisPort, "AUTH " + password, "KEYS *")).startsWith("*");
            assertThat(command(redisPort, "AUTH " + password, "CONFIG SET dir /tmp")).startsWith("-ERR unknown command");
        }
    }

    /** Sends each line as an inline command and returns the first line of the last reply. */
    private static String command(int port, String... lines) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            String reply = "";
            for (String line : lines) {
                out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                StringBuilder read = new StringBuilder();
                for (int c; (c = in.read()) != -1 && c != '\n'; ) {
                    if (c != '\r') {
                        read.append((char) c);
                    }
                }
                reply = read.toString();
            }
            return reply;
        }
    }
}
