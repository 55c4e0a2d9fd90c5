package dev.cim.server.redis.embedded;

import java.io.IOException;

/**
 * A JVM of its own that runs one {@link EmbeddedRedisServer}, for tests that kill that JVM. Prints
 * {@link #READY} once Redis accepts connections, then runs until its standard input ends: a test JVM
 * that dies takes this one, and its Redis, along.
 *
 * <p>Usage: {@code java -cp <test class path> dev.cim.server.redis.EmbeddedRedisChild <port>}
 */
final class EmbeddedRedisChild {

    static final String READY = "embedded redis child: ready";

    private EmbeddedRedisChild() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("arguments: " + String.join(" ", args) + " (expected: <redis port>)");
        }
        try (EmbeddedRedisServer redis = new EmbeddedRedisServer(Integer.parseInt(args[0]), java.nio.file.Files.createTempDirectory("cim-redis-child"), "everysec")) {
            redis.start();
            System.out.println(READY);
            System.out.flush();
            while (System.in.read() != -1) {
                // nothing is sent: only the end of input matters
            }
        }
    }
}
