package dev.cim.testkit;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for the processes a test or the load generator starts, chosen before they start: a process
 * is told its port on its command line, and a restarted server or Redis must come back on the same
 * one.
 *
 * <p>Not the kernel's choice for a socket bound to port 0: that comes from the ephemeral range, the
 * range the kernel also takes the local ports of outgoing connections from, so between the choice
 * and the process's own bind a connection (the server's to Redis, a client's) can take it, and the
 * process fails to start ("Port 44441 was already in use", once in CI). These come from below that
 * range, where the kernel never picks, are checked free with a bind, and are not handed out twice by
 * one JVM. A socket the caller binds itself, at once, still wants port 0: no one else can take it.
 */
public final class Ports {

    /** The lowest port handed out: above the well-known and most registered services' ports. */
    private static final int LOWEST = 20_000;
    /** Linux's default start of the ephemeral range, when the machine's cannot be read. */
    private static final int EPHEMERAL_DEFAULT = 32_768;
    /** The fewest ports below the ephemeral range this needs to choose from. */
    private static final int ENOUGH = 1_000;
    private static final int ATTEMPTS = 1_000;

    private static final Set<Integer> issued = new HashSet<>();

    private Ports() {
    }

    /**
     * A port no process listens on, below the kernel's ephemeral range, not returned before by this
     * JVM.
     *
     * @throws IllegalStateException if the ephemeral range starts too low to leave room below it, or
     *                               no free port was found
     */
    public static synchronized int free() {
        int below = ephemeralStart();
        if (below - LOWEST < ENOUGH) {
            throw new IllegalStateException("the ephemeral ports start at " + below
                    + " (expected: above " + (LOWEST + ENOUGH) + ", as Linux's default 32768)");
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
            if (!issued.contains(port) && bindable(port)) {
                issued.add(port);
                return port;
            }
        }
        throw new IllegalStateException("no free port in [" + LOWEST + ", " + below + ") after " + ATTEMPTS + " tries");
    }

    /**
     * The first of {@code count} consecutive ports, each free as {@link #free} ones are, and each with
     * the port {@code offset} above it free too (a Redis Cluster node listens on its port and on its
     * bus port, 10,000 above), none returned before by this JVM.
     *
     * @throws IllegalStateException if no such run was found below the ephemeral range
     */
    public static synchronized int freeRun(int count, int offset) {
        int below = ephemeralStart() - offset - count;
        for (int attempt = 0; below > LOWEST && attempt < ATTEMPTS; attempt++) {
            int first = ThreadLocalRandom.current().nextInt(LOWEST, below);
            boolean all = true;
            for (int port = first; all && port < first + count; port++) {
                all = !issued.contains(port) && !issued.contains(port + offset) && bindable(port)
                        && bindable(port + offset);
            }
            if (all) {
                for (int port = first; port < first + count; port++) {
                    issued.add(port);
                    issued.add(port + offset);
                }
                return first;
            }
        }
        throw new IllegalStateException("no " + count + " free ports (and " + offset + " above each) below "
                + ephemeralStart() + " after " + ATTEMPTS + " tries");
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket(port)) { // every address: a listener on any one conflicts
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }

    /** The first port of the kernel's ephemeral range (Linux: ip_local_port_range). */
    static int ephemeralStart() {
        try {
            // Through a reader: of this sysctl file, whose size shows as 0, Files.readString got only "3".
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException unreadable) {
            return EPHEMERAL_DEFAULT;
        }
    }
}
