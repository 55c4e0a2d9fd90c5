package dev.cim.loadgen;

import dev.cim.loadgen.relay.BareRelay;
import dev.cim.testkit.Ports;
import dev.cim.testkit.Processes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link BareRelay} running as a child process of the generator, from the generator's own class
 * path, with the server's heap: measured on its own, as the server is ({@link CpuMeter} reads its
 * process). {@link #close()} kills it, and a shutdown hook does too.
 */
final class ChildRelay implements AutoCloseable {

    private static final Duration START = Duration.ofSeconds(30);

    private final Process process;
    private final int port;
    private final List<String> command;
    private final Path log;
    private final Thread hook = new Thread(this::close, "cim-loadgen-stop-relay");

    private ChildRelay(Process process, int port, List<String> command, Path log) {
        this.process = process;
        this.port = port;
        this.command = command;
        this.log = log;
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Starts the relay and waits until it listens.
     *
     * @param jvmArgs the child server's JVM options, so that the two differ only in what the relay skips
     * @param acked   whether it answers a send once its recipient acknowledged it
     * @throws IllegalStateException if it does not listen in time
     */
    static ChildRelay start(String heap, List<String> jvmArgs, boolean acked) throws IOException {
        int port = Ports.free();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + heap));
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), BareRelay.class.getName(),
                "--port=" + port));
        if (acked) {
            command.add("--acked");
        }
        Path log = Files.createTempFile("cim-loadgen-relay-", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ChildRelay relay = new ChildRelay(process, port, command, log);
        relay.awaitListening();
        return relay;
    }

    private void awaitListening() throws IOException {
        try {
            ChildOutput.await(process, log, BareRelay.LISTENING, START, "the relay");
        } catch (IllegalStateException e) {
            close();
            throw e;
        }
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** "child process pid N (log ...): `java ...`", with the class path left out. */
    String describe() {
        List<String> shown = new ArrayList<>(command);
        int cp = shown.indexOf("-cp");
        if (cp >= 0) {
            shown.set(cp + 1, "<the generator's class path>");
        }
        return "child process pid " + process.pid() + " (log " + log + "): `" + String.join(" ", shown) + "`";
    }

    @Override
    public void close() {
        Processes.stop(process, List.of(), Duration.ofSeconds(5), Duration.ZERO);
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: nothing left to undo
            }
        }
    }
}
