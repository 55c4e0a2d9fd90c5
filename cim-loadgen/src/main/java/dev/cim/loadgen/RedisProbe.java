package dev.cim.loadgen;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the memory of the child server's embedded Redis: {@code used_memory} of {@code INFO memory}
 * (what Redis allocated for data and its own bookkeeping, not the process' resident size), over one
 * short connection speaking RESP, authenticated with the password the server generated in its data
 * directory ({@code redis.password}). No Redis client library: two commands are all it needs.
 */
final class RedisProbe {

    private static final int TIMEOUT_MILLIS = 10_000;
    /** Readings of a settling {@code used_memory} this close to each other count as still. */
    static final long STILL_BYTES = 1024;
    static final long SETTLE_POLL_MILLIS = 100;

    private final int port;
    private final Path passwordFile;

    /**
     * @param port         the embedded Redis' port on 127.0.0.1
     * @param passwordFile its password, one line
     */
    RedisProbe(int port, Path passwordFile) {
        this.port = port;
        this.passwordFile = passwordFile;
    }

    /** The number {@code name} of {@code INFO <section>}, or -1 if it could not be read. */
    long infoNumber(String section, String name) {
        try {
            Matcher field = Pattern.compile("(?m)^" + Pattern.quote(name) + ":(-?\\d+)\\r?$").matcher(info(section));
            return field.find() ? Long.parseLong(field.group(1)) : -1;
        } catch (IOException e) {
            System.err.println("cim-loadgen: could not read Redis' INFO " + section + " on port " + port + ": " + e);
            return -1;
        }
    }

    /** {@code used_memory} in bytes, or -1 if it could not be read (the reason on standard error). */
    long usedMemory() {
        return infoNumber("memory", "used_memory");
    }

    /**
     * {@code used_memory} once it has held still. Right after traffic, what comes and goes with it
     * (clients' buffers, whose accounting Redis updates a little later, writes just behind the
     * traffic) moves it by tens of kilobytes, which would swamp a difference of that size. Read every
     * {@value #SETTLE_POLL_MILLIS} ms until the readings of the last {@code quiet} are all within
     * {@value #STILL_BYTES} bytes of each other, or {@code timeout} passed: then the last reading.
     *
     * @return bytes, or -1 if it could not be read
     */
    long settledUsedMemory(Duration quiet, Duration timeout) {
        long start = System.nanoTime();
        long stillSince = start;
        long low = Long.MAX_VALUE;
        long high = Long.MIN_VALUE;
        while (true) {
            long reading = usedMemory();
            long now = System.nanoTime();
            if (reading < 0) {
                return -1;
            }
            if (Math.max(high, reading) - Math.min(low, reading) > STILL_BYTES) {
                low = reading;
                high = reading;
                stillSince = now;
            } else {
                low = Math.min(low, reading);
                high = Math.max(high, reading);
            }
            if (now - stillSince >= quiet.toNanos() || now - start >= timeout.toNanos()) {
                return reading;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(SETTLE_POLL_MILLIS)); // polling, with a deadline
        }
    }

    /** The text of {@code INFO <section>}. */
    String info(String section) throws IOException {
        String password = Files.readString(passwordFile, StandardCharsets.UTF_8).strip();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            out.write(command("AUTH", password));
            out.write(command("INFO", section));
            out.flush();
            String auth = reply(in);
            if (!"OK".equals(auth)) {
                throw new IOException("AUTH answered " + auth);
            }
            return reply(in);
        }
    }

    /** One RESP command: an array of bulk strings. */
    static byte[] command(String... words) {
        StringBuilder resp = new StringBuilder().append('*').append(words.length).append("\r\n");
        for (String word : words) {
            resp.append('$').append(word.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(word).append("\r\n");
        }
        return resp.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Reads one simple-string or bulk-string reply; an error reply or anything else throws. */
    static String reply(InputStream in) throws IOException {
        String line = line(in);
        if (line.startsWith("+")) {
            return line.substring(1);
        }
        if (line.startsWith("$")) {
            int length = Integer.parseInt(line.substring(1));
            if (length < 0) {
                return null;
            }
            byte[] bulk = in.readNBytes(length + 2); // and its CRLF
            if (bulk.length != length + 2) {
                throw new IOException("Redis closed the connection in a reply");
            }
            return new String(bulk, 0, length, StandardCharsets.UTF_8);
        }
        throw new IOException("Redis answered: " + line);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        for (int b = in.read(); b >= 0; b = in.read()) {
            if (previous == '\r' && b == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(b);
            previous = b;
        }
        throw new IOException("Redis closed the connection");
    }
}
