package dev.cim.loadgen.peer.xmpp;

import dev.cim.loadgen.peer.PeerScript;
import dev.cim.loadgen.peer.PeerServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Debian's ejabberd, the XMPP server part 1 measures cim against, run through the project's script
 * {@code bin/peer-ejabberd} (which installs it if need be, writes its configuration and registers
 * the users {@code u0} .. {@code u<n-1>}): started by the generator in a directory of its own, or one
 * already running, given its port (what either is: {@link PeerServer}; its pid is the Erlang VM's,
 * beam.smp, whose CPU time is the server's). Its users log in at {@link XmppEndpoint#peer}.
 */
public final class PeerEjabberd {

    /** The script's name, in the directory given as {@code --peer-script-dir}. */
    public static final String SCRIPT = "peer-ejabberd";

    private PeerEjabberd() {
    }

    /** Whether ejabberd is installed here ({@code ejabberdctl}), so that a start need not install it. */
    public static boolean installed() {
        return Files.isExecutable(Path.of("/usr/sbin/ejabberdctl"))
                || Files.isExecutable(Path.of("/usr/bin/ejabberdctl"));
    }

    /**
     * Starts ejabberd with {@code peer-ejabberd start --dir dir --port port --users users}, which
     * waits until it answers and has registered the users; closing it stops it.
     *
     * @param scriptDir where {@value #SCRIPT} is
     * @param dir       its directory (config, database, logs), reachable by the system user ejabberd
     *                  the node runs as (not under /root)
     * @throws IllegalStateException with the script's output if it failed
     */
    public static PeerServer start(Path scriptDir, Path dir, int port, int users) throws IOException {
        PeerScript script = PeerScript.in(scriptDir, SCRIPT);
        String said = script.start(dir, port, "--users", Integer.toString(checked(users)));
        return PeerServer.started(script, dir, port, said + ", started by `" + script + " start --dir " + dir
                + " --port " + port + " --users " + users + "`");
    }

    /**
     * The ejabberd already running on {@code port}, as {@code peer-ejabberd start} left it, with the
     * users {@code u0} .. {@code u<users-1>} that it lacks registered now ({@code start} on a running
     * node does only that, after checking its port); closing it leaves it running.
     *
     * @param dir its directory, as given to the script, or null for the script's default
     * @throws IllegalStateException if the script finds none running from {@code dir}, or the one
     *                               there listens on another port
     */
    public static PeerServer attach(Path scriptDir, Path dir, int port, int users) throws IOException {
        PeerScript script = PeerScript.in(scriptDir, SCRIPT);
        script.run("status", dir);
        String said = script.start(dir, port, "--users", Integer.toString(checked(users)));
        return PeerServer.attached(script, dir, port, said + ", running before the generator");
    }

    private static int checked(int users) {
        if (users < 1) {
            throw new IllegalArgumentException("users: " + users + " (expected: >= 1)");
        }
        return users;
    }
}
