package dev.cim.client.console;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Plain lines in and out, for scripts and pipes: no prompt, no editing, one line per print. */
public final class PipedConsole implements Console {

    private final BufferedReader in;
    private final PrintStream out;

    public PipedConsole(InputStream in, PrintStream out) {
        this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        this.out = out;
    }

    @Override
    public String readLine() throws IOException {
        return in.readLine();
    }

    @Override
    public String readPassword(String prompt) {
        return null;
    }

    @Override
    public void print(String line) {
        synchronized (out) { // whole lines, never interleaved
            out.println(line);
            out.flush();
        }
    }

    @Override
    public void close() {
        out.flush();
    }
}
