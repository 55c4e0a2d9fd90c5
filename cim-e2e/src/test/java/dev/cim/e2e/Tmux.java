package dev.cim.e2e;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A tmux session holding one program in a real terminal: keys go in with send-keys, the screen comes out with capture-pane. */
final class Tmux implements AutoCloseable {

    private final String session;

    private Tmux(String session) {
        this.session = session;
    }

    /** Starts {@code command} in a new detached session of 120 x 30 characters. */
    static Tmux start(String session, List<String> command) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("new-session", "-d", "-s", session, "-x", "120", "-y", "30"));
        args.add(String.join(" ", command));
        run(args);
        return new Tmux(session);
    }

    /** Sends keys: literal text, or tmux key names such as Enter, Left, BSpace, Up, Tab. */
    void keys(String... keys) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("send-keys", "-t", session));
        args.addAll(List.of(keys));
        run(args);
    }

    /** Sends text typed literally, with no key-name interpretation. */
    void type(String text) throws IOException, InterruptedException {
        run(List.of("send-keys", "-t", session, "-l", text));
    }

    /** The visible screen, one string per row, trailing blanks trimmed. */
    List<String> screen() throws IOException, InterruptedException {
        return run(List.of("capture-pane", "-p", "-t", session)).lines().map(String::stripTrailing).toList();
    }

    /** Polls the screen until it satisfies {@code condition}; returns it. */
    List<String> awaitScreen(Predicate<List<String>> condition, Duration timeout, String what)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> screen = screen();
        while (!condition.test(screen)) {
            if (System.nanoTime() > deadline) {
                fail("the terminal never showed " + what + " within " + timeout + "; the screen:\n" + String.join("\n", screen));
            }
            Thread.sleep(50); // polling interval of the screen
            screen = screen();
        }
        return screen;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run(List.of("kill-session", "-t", session));
    }

    private static String run(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("tmux");
        command.addAll(args);
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException notInstalled) {
            fail("tmux is needed for the terminal test: apt-get install tmux (.ci/run installs it)");
            throw notInstalled;
        }
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
            fail("tmux " + String.join(" ", args) + " failed: " + out);
        }
        return out;
    }
}
