package dev.cim.loadgen.peer;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Debian's mosquitto, the MQTT broker part 1 measures cim against, run through the project's script
 * {@code bin/peer-mosquitto} (which installs it if need be and writes its configuration): started by
 * the generator in a directory of its own, or one already running, given its port (what either is:
 * {@link PeerServer}).
 */
public final class MosquittoBroker {

    /** The script's name, in the directory given as {@code --peer-script-dir}. */
    public static final String SCRIPT = "peer-mosquitto";

    private MosquittoBroker() {
    }

    /**
     * Starts a broker with {@code peer-mosquitto start --dir dir --port port} and waits until it
     * answers (the script waits); closing it stops it.
     *
     * @param scriptDir where {@value #SCRIPT} is
     * @param dir       the broker's directory: configuration, log, pid and persistence files
     * @throws IllegalStateException with the script's output if it failed
     */
    public static PeerServer start(Path scriptDir, Path dir, int port) throws IOException {
        PeerScript script = PeerScript.in(scriptDir, SCRIPT);
        String said = script.start(dir, port);
        return PeerServer.started(script, dir, port, said + ", started by `" + script + " start --dir " + dir
                + " --port " + port + "`");
    }

    /**
     * The broker already running on {@code port}, as {@code peer-mosquitto start} left it; closing it
     * leaves it running.
     *
     * @param dir its directory, as given to the script, or null for the script's default
     * @throws IllegalStateException if the script finds none running from {@code dir}
     * @throws IllegalArgumentException if the one running from {@code dir} listens on another port
     */
    public static PeerServer attach(Path scriptDir, Path dir, int port) throws IOException {
        PeerScript script = PeerScript.in(scriptDir, SCRIPT);
        String status = script.run("status", dir);
        if (!status.contains(" on 127.0.0.1:" + port + ",")) {
            throw new IllegalArgumentException("--mqtt-port: " + port + ", but the broker running from "
                    + (dir == null ? "the script's default directory" : dir) + " says: " + status
                    + " (expected: the --mqtt-dir of the broker on that port)");
        }
        return PeerServer.attached(script, dir, port, status + ", running before the generator");
    }
}
