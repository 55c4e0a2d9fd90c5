package dev.cim.client.console;

import java.util.ArrayList;
import java.util.List;

/** A console for tests: nothing to read, and every line printed kept in {@link #lines}. */
public final class RecordingConsole implements Console {

    /** What was printed, a line per call. */
    public final List<String> lines = new ArrayList<>();

    @Override
    public String readLine() {
        return null;
    }

    @Override
    public String readPassword(String prompt) {
        return null;
    }

    @Override
    public void print(String line) {
        lines.add(line);
    }

    @Override
    public void close() {
    }
}
