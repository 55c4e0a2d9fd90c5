package dev.cim.client.console;

import java.io.IOException;

/**
 * Where the user types and reads. Safe to {@link #print} from any thread while another blocks in
 * {@link #readLine()}: on a terminal, printed lines appear above the line being typed, which is
 * redrawn untouched.
 */
public interface Console extends AutoCloseable {

    /** The next line typed, without its line break, or null at the end of input (Ctrl-D, a closed pipe). */
    String readLine() throws IOException;

    /**
     * Asks for a password without echoing it, where the console can; null when it cannot ask (piped
     * input: the password must come from the environment or a file, not the data being piped).
     */
    String readPassword(String prompt);

    /** Shows one line of output. */
    void print(String line);

    @Override
    void close();
}
