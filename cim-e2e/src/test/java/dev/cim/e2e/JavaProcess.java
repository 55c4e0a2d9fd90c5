package dev.cim.e2e;

import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A built jar running as a separate JVM: its standard output read line by line, with the
 * {@link System#nanoTime()} at which each line arrived, and its standard input writable.
 */
public final class JavaProcess implements AutoCloseable {

    /** One line of output and when it was read. */
    public record Line(String text, long nanos) {
    }

    private final String name;
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<Line> unread = new LinkedBlockingQueue<>();
    private final List<String> transcript = new ArrayList<>();
    private final Thread pump;

    private JavaProcess(String name, Process process) {
        this.name = name;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.pump = new Thread(this::pump, "stdout-of-" + name);
        pump.setDaemon(true);
        pump.start();
    }

    /** Starts {@code java -jar jar args...}, with standard error merged into standard output. */
    public static JavaProcess start(String name, Path jar, List<String> args) throws IOException {
        return start(name, jar, args, java.util.Map.of());
    }

    /** Like {@link #start(String, Path, List)}, with more environment variables. */
    public static JavaProcess start(String name, Path jar, List<String> args, java.util.Map<String, String> env)
            throws IOException {
        if (!Files.isRegularFile(jar)) {
            fail(jar + " is missing: these tests run the packaged jars, so run them with './mvnw -B verify'");
        }
        ProcessBuilder builder = new ProcessBuilder(command(jar, args)).redirectErrorStream(true);
        builder.environment().putAll(env);
        return new JavaProcess(name, builder.start());
    }

    /** Starts a command as it is (a launcher script), with standard error merged into standard output. */
    public static JavaProcess startCommand(String name, List<String> command, java.util.Map<String, String> env)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        return new JavaProcess(name, builder.start());
    }

    /** Starts {@code java -cp classpath mainClass args...}: a program of the tests' own, in a JVM of its own. */
    public static JavaProcess startMain(String name, Class<?> main, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(args);
        return new JavaProcess(name, new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** The name it was started under. */
    public String name() {
        return name;
    }

    /** The process, for signals. */
    public ProcessHandle handle() {
        return process.toHandle();
    }

    /** {@code java -jar jar args...} with this JVM's java and settings for short-lived processes. */
    static List<String> command(Path jar, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-XX:TieredStopAtLevel=1"); // these JVMs live for seconds: start fast
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(args);
        return command;
    }

    private void pump() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String text; (text = out.readLine()) != null; ) {
                Line line = new Line(text, System.nanoTime());
                synchronized (transcript) {
                    transcript.add(text);
                }
                unread.add(line);
            }
        } catch (IOException closed) {
            // the process ended
        }
    }

    /** Types one line, as a user would, and returns the nanoTime just before it was written. */
    public long type(String line) throws IOException {
        long before = System.nanoTime();
        stdin.write(line);
        stdin.write('\n');
        stdin.flush();
        return before;
    }

    /** Closes standard input: the end of input. */
    public void endInput() throws IOException {
        stdin.close();
    }

    /**
     * Reads lines until one matches, and returns it; lines before it are skipped.
     *
     * @throws AssertionError with the transcript if none matches within {@code timeout}
     */
    public Line await(Predicate<String> match, Duration timeout, String what) throws InterruptedException {
        List<Line> read = until(match, timeout, what);
        return read.get(read.size() - 1);
    }

    /** Like {@link #await}, for a line containing {@code text}. */
    public Line await(String text, Duration timeout) throws InterruptedException {
        return await(line -> line.contains(text), timeout, "a line containing '" + text + "'");
    }

    /** Reads lines up to and including the first that matches, and returns them all. */
    public List<Line> until(Predicate<String> match, Duration timeout, String what) throws InterruptedException {
        List<Line> read = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Line line = unread.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                fail(name + " printed no " + what + " within " + timeout + "; its output:\n" + transcript());
            }
            read.add(line);
            if (match.test(line.text())) {
                return read;
            }
        }
    }

    /** Waits for the process to end; returns its exit code. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            fail(name + " did not exit within " + timeout + "; its output:\n" + transcript());
        }
        return process.exitValue();
    }

    /** SIGSTOP: the process freezes; its sockets stay open, and nothing reads them. */
    public void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGTERM: the process is asked to end, as {@code kill} or a service manager asks. */
    public void terminate() throws IOException, InterruptedException {
        signal("TERM");
    }

    /** SIGCONT: a frozen process goes on. */
    public void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        long pid = process.pid();
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Ends the process at once, as a crash would (SIGKILL), and waits until everything it printed
     * is in the {@link #transcript()}: its last lines may still be in the pipe when it dies, and a
     * test that reads the transcript at once (the fault suite's "highest SENT") would miss them.
     * The signal goes through the {@link ProcessHandle}: {@link Process#destroyForcibly()} also
     * closes this end of the pipe, and what the pump had not read yet was lost (a killed member's
     * last messages, shown and acknowledged, counted as never shown on a loaded machine).
     *
     * @throws IllegalStateException if the process is not gone, or its output not read to its end,
     *                               within 10 s each
     */
    public void kill() throws InterruptedException {
        process.toHandle().destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " still running 10 s after SIGKILL");
        }
        pump.join(TimeUnit.SECONDS.toMillis(10));
        if (pump.isAlive()) {
            throw new IllegalStateException("the output of " + name + " not read to its end 10 s after it died");
        }
    }

    public String transcript() {
        synchronized (transcript) {
            return String.join("\n", transcript);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.toHandle().destroy(); // SIGTERM, the pipe left open for the pump (see kill)
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}
