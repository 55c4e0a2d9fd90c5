package dev.cim.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Waits for a child process of the generator to say it is ready, in the log its output goes to. */
final class ChildOutput {

    private ChildOutput() {
    }

    /**
     * Reads {@code log} every 100 ms until it holds {@code line}.
     *
     * @param what the child, for the failures: "the server"
     * @return the log's text once it holds the line
     * @throws IllegalStateException if the process exits first, or {@code within} passes (the
     *         process is then left to the caller to stop)
     */
    static String await(Process process, Path log, String line, Duration within, String what) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            String output = Files.readString(log, StandardCharsets.UTF_8);
            if (output.contains(line)) {
                return output;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(what + " exited with " + process.exitValue()
                        + " before listening; its output:\n" + output);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // polling the log, with a deadline
        }
        throw new IllegalStateException(what + " did not listen within " + within + "; see " + log);
    }
}
