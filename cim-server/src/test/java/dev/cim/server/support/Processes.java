package dev.cim.server.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether a process still runs, as a test that checks for processes left behind needs to know. */
public final class Processes {

    private Processes() {
    }

    /**
     * Whether {@code process} still runs. {@link ProcessHandle#isAlive()} alone also counts a
     * zombie, a process that has exited but not yet been reaped by its parent; an orphan's new parent
     * (pid 1) may take seconds to reap it, or never do (a container whose pid 1 does not reap). On
     * Linux the state in {@code /proc/<pid>/stat} tells a zombie apart; elsewhere this is
     * {@code isAlive()}.
     */
    public static boolean running(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"),
                    StandardCharsets.US_ASCII);
            // "pid (command) state ...": the command may hold spaces and parentheses, the state
            // follows the last ')'.
            int commandEnd = stat.lastIndexOf(')');
            return commandEnd < 0 || commandEnd + 2 >= stat.length() || stat.charAt(commandEnd + 2) != 'Z';
        } catch (IOException e) {
            return process.isAlive(); // no /proc (not Linux), or the process has just gone
        }
    }
}
