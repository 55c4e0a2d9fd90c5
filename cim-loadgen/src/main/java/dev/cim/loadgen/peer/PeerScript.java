package dev.cim.loadgen.peer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A peer server's script of the project ({@code bin/peer-mosquitto}, {@code bin/peer-ejabberd}),
 * run with bash: the one place that knows how to install, configure, start and stop that server and
 * read its pid, so that a run of the generator and a person at a shell get the same server. Every
 * such script takes {@code start|stop|status|pid} and {@code --dir DIR} (the server's own directory)
 * and {@code --port PORT}, prints what it did, and exits non-zero with a message when it fails.
 */
public final class PeerScript {

    /** A start may install the package first. */
    private static final Duration START = Duration.ofMinutes(10);
    private static final Duration COMMAND = Duration.ofSeconds(60);

    private final Path path;

    private PeerScript(Path path) {
        this.path = path;
    }

    /**
     * The script {@code name} in {@code scriptDir}.
     *
     * @throws IllegalArgumentException if it is not there
     */
    public static PeerScript in(Path scriptDir, String name) {
        Path script = scriptDir.resolve(name);
        if (!Files.isRegularFile(script)) {
            throw new IllegalArgumentException("--peer-script-dir: " + scriptDir.toAbsolutePath() + " has no " + name
                    + " (expected: the project's bin directory; run from the project directory or give "
                    + "--peer-script-dir)");
        }
        return new PeerScript(script);
    }

    /**
     * {@code start --dir dir --port port more...}, which waits until the server answers; returns its
     * last line (where the server is).
     *
     * @param dir the server's directory, or null for the script's default
     * @throws IllegalStateException with the script's output if it failed
     */
    public String start(Path dir, int port, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("--port", Integer.toString(port)));
        args.addAll(List.of(more));
        return lastLine(run(START, "start", dir, args));
    }

    /**
     * {@code command --dir dir}, e.g. {@code status} or {@code stop}; returns its last line.
     *
     * @param dir the server's directory, or null for the script's default
     * @throws IllegalStateException with the script's output if it failed
     */
    public String run(String command, Path dir) throws IOException {
        return lastLine(run(COMMAND, command, dir, List.of()));
    }

    /**
     * The pid of the server running from {@code dir}, for a CPU meter ({@code pid --dir dir}).
     *
     * @throws IllegalStateException if none runs from there
     */
    public long pid(Path dir) throws IOException {
        String said = run("pid", dir);
        try {
            return Long.parseLong(said);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(path + " pid: '" + said + "' (expected: the server's pid)");
        }
    }

    /**
     * Runs the script with bash and returns what it printed.
     *
     * @throws IllegalStateException with that output, if it fails or takes longer than {@code within}
     */
    private String run(Duration within, String command, Path dir, List<String> more) throws IOException {
        List<String> line = new ArrayList<>(List.of("bash", path.toString(), command));
        if (dir != null) {
            line.addAll(List.of("--dir", dir.toString()));
        }
        line.addAll(more);
        Path output = Files.createTempFile("cim-loadgen-peer-script-", ".log");
        try {
            Process process = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            boolean exited;
            try {
                exited = process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while running " + String.join(" ", line), e);
            }
            String said = Files.readString(output, StandardCharsets.UTF_8);
            if (!exited) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", line) + " did not finish within " + within
                        + "; it said:\n" + said);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", line) + " exited with " + process.exitValue()
                        + "; it said:\n" + said);
            }
            return said;
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static String lastLine(String output) {
        String[] lines = output.strip().split("\n");
        return lines[lines.length - 1];
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
