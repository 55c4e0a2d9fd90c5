package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedisProbeTest {

    @TempDir
    Path dir;

    @Test
    void usedMemory_authenticatesWithThePasswordFile_thenReadsInfoMemory() throws Exception {
        Files.writeString(dir.resolve("redis.password"), "s3cret\n");
        String info = "# Memory\r\nused_memory:1234567\r\nused_memory_human:1.18M\r\nused_memory_rss:9999999\r\n";
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<List<String>> commands = answer(server, "+OK\r\n", bulk(info));

            long used = new RedisProbe(server.getLocalPort(), dir.resolve("redis.password")).usedMemory();

            assertThat(used).isEqualTo(1_234_567);
            assertThat(commands.get(10, TimeUnit.SECONDS)).containsExactly("AUTH s3cret", "INFO memory");
        }
    }

    @Test
    void usedMemory_isMinusOne_whenRedisRefusesThePassword() throws Exception {
        Files.writeString(dir.resolve("redis.password"), "wrong");
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            answer(server, "-WRONGPASS invalid username-password pair\r\n", "-NOAUTH Authentication required.\r\n");

            assertThat(new RedisProbe(server.getLocalPort(), dir.resolve("redis.password")).usedMemory()).isEqualTo(-1);
        }
    }

    @Test
    void settledUsedMemory_readsUntilTheReadingsHoldStill_andGivesTheLast() throws Exception {
        Files.writeString(dir.resolve("redis.password"), "s3cret\n");
        // Moving by tens of kilobytes, then still (within a kilobyte) from the third reading on.
        long[] readings = {1_000_000, 1_040_000, 1_020_000, 1_020_500, 1_020_100, 1_020_900, 1_020_200, 1_020_300,
            1_020_400, 1_020_400, 1_020_400};
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Integer> served = serveUsedMemory(server, readings);

            long settled = new RedisProbe(server.getLocalPort(), dir.resolve("redis.password"))
                    .settledUsedMemory(Duration.ofMillis(250), Duration.ofSeconds(10));

            assertThat(settled).isBetween(1_020_000L, 1_020_900L);
            assertThat(served.get(10, TimeUnit.SECONDS)).as("readings taken").isBetween(5, readings.length);
        }
    }

    @Test
    void settledUsedMemory_givesTheLastReading_whenItNeverHoldsStillBeforeTheTimeout() throws Exception {
        Files.writeString(dir.resolve("redis.password"), "s3cret\n");
        long[] growing = LongStream.range(0, 1000).map(i -> 1_000_000 + i * 10_000).toArray();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Integer> served = serveUsedMemory(server, growing);

            long settled = new RedisProbe(server.getLocalPort(), dir.resolve("redis.password"))
                    .settledUsedMemory(Duration.ofSeconds(5), Duration.ofMillis(300));

            assertThat(settled).isGreaterThan(1_000_000L);
            assertThat(served.get(10, TimeUnit.SECONDS)).isLessThan(growing.length);
        }
    }

    /**
     * Answers one connection per reading (AUTH, then INFO memory with that {@code used_memory}) until
     * the readings run out or none comes for a while; completes with the connections answered.
     */
    private static CompletableFuture<Integer> serveUsedMemory(ServerSocket server, long... readings) {
        return CompletableFuture.supplyAsync(() -> {
            int connections = 0;
            try {
                server.setSoTimeout(1000);
                for (long used : readings) {
                    try (Socket socket = server.accept()) {
                        InputStream in = new BufferedInputStream(socket.getInputStream());
                        OutputStream out = socket.getOutputStream();
                        readCommand(in);
                        out.write("+OK\r\n".getBytes(StandardCharsets.UTF_8));
                        readCommand(in);
                        out.write(bulk("# Memory\r\nused_memory:" + used + "\r\n").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        connections++;
                    }
                }
            } catch (IOException e) {
                // no more readings asked for
            }
            return connections;
        });
    }

    @Test
    void command_isAnArrayOfBulkStrings() {
        assertThat(new String(RedisProbe.command("INFO", "memory"), StandardCharsets.UTF_8))
                .isEqualTo("*2\r\n$4\r\nINFO\r\n$6\r\nmemory\r\n");
    }

    private static String bulk(String text) {
        return "$" + text.getBytes(StandardCharsets.UTF_8).length + "\r\n" + text + "\r\n";
    }

    /** Accepts one connection, reads two commands, writes the replies; completes with the commands read. */
    private static CompletableFuture<List<String>> answer(ServerSocket server, String... replies) {
        return CompletableFuture.supplyAsync(() -> {
            try (Socket socket = server.accept()) {
                InputStream in = new BufferedInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream();
                List<String> commands = new ArrayList<>();
                for (String reply : replies) {
                    commands.add(readCommand(in));
                    out.write(reply.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
                return commands;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static String readCommand(InputStream in) throws IOException {
        int words = Integer.parseInt(line(in).substring(1));
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < words; i++) {
            int length = Integer.parseInt(line(in).substring(1));
            parts.add(new String(in.readNBytes(length), StandardCharsets.UTF_8));
            in.readNBytes(2);
        }
        return String.join(" ", parts);
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }
}
