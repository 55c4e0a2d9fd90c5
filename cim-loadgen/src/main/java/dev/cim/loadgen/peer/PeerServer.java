package dev.cim.loadgen.peer;

import dev.cim.testkit.Processes;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A peer server the generator measures cim against, running through its {@link PeerScript}: either
 * started by the generator in a directory of its own and stopped at the end ({@link #started}), or
 * one running already, which it leaves running ({@link #attached}). Either way its pid comes from
 * the script, so that the generator's CPU meter reads the peer as it reads the server. The server is
 * not a child of the generator (the scripts daemonize it), hence the script to stop it, from
 * {@link #close()} or a shutdown hook. Which server and how to start it is
 * {@link MosquittoBroker}'s or {@code dev.cim.loadgen.peer.xmpp.PeerEjabberd}'s.
 */
public final class PeerServer implements AutoCloseable {

    private final PeerScript script;
    private final Path dir;
    private final int port;
    private final long pid;
    private final boolean started;
    private final String description;
    private final Thread hook;

    private PeerServer(PeerScript script, Path dir, int port, boolean started, String description) throws IOException {
        this.script = script;
        this.dir = dir;
        this.port = port;
        this.pid = script.pid(dir);
        this.started = started;
        this.description = description;
        this.hook = new Thread(this::close, "cim-loadgen-stop-peer");
        if (started) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    /**
     * The server {@code script} has just started from {@code dir}: {@link #close()} stops it.
     *
     * @param description how the report names it, e.g. the script's last line and its command
     * @throws IllegalStateException if the script finds none running there
     */
    public static PeerServer started(PeerScript script, Path dir, int port, String description) throws IOException {
        try {
            return new PeerServer(script, dir, port, true, description);
        } catch (IOException | RuntimeException e) {
            try {
                script.run("stop", dir);
            } catch (IOException | RuntimeException notStopped) {
                e.addSuppressed(notStopped);
            }
            throw e;
        }
    }

    /**
     * A server that ran before the generator, from {@code dir} (null: the script's default):
     * {@link #close()} leaves it running.
     *
     * @throws IllegalStateException if the script finds none running there
     */
    public static PeerServer attached(PeerScript script, Path dir, int port, String description) throws IOException {
        return new PeerServer(script, dir, port, false, description);
    }

    public int port() {
        return port;
    }

    /** The server's process, for the CPU meter. */
    public long pid() {
        return pid;
    }

    public boolean isAlive() {
        return ProcessHandle.of(pid).map(Processes::running).orElse(false);
    }

    /** For the report: where it listens, its pid and directory, and how it was started. */
    public String describe() {
        return description;
    }

    /** Stops the server if the generator started it (the script waits until it is gone); else nothing. */
    @Override
    public void close() {
        if (!started) {
            return;
        }
        try {
            script.run("stop", dir);
        } catch (IOException | RuntimeException e) {
            System.err.println("cim-loadgen: could not stop the peer server (pid " + pid + ") with " + script
                    + " stop: " + e.getMessage());
        }
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: nothing left to undo
            }
        }
    }
}
