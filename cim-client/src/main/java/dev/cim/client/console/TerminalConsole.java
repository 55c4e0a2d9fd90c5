package dev.cim.client.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.completer.StringsCompleter;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * A JLine 3 terminal: line editing, history (kept in a file across runs), and tab completion of the
 * {@code :} commands. Lines printed while the user types go above the prompt through
 * {@link LineReader#printAbove(String)}, which redraws the half-typed line below them.
 */
public final class TerminalConsole implements Console {

    private final Terminal terminal;
    private final LineReader reader;
    private final String prompt;

    public TerminalConsole(String prompt, List<String> commands, Path historyFile) {
        this.prompt = prompt;
        try {
            this.terminal = TerminalBuilder.builder().system(true).build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the terminal", e);
        }
        this.reader = LineReaderBuilder.builder()
                .terminal(terminal)
                .appName("cim")
                .completer(new StringsCompleter(commands))
                .variable(LineReader.HISTORY_FILE, historyFile)
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true) // '!' is plain text in chat
                .build();
    }

    @Override
    public String readLine() {
        while (true) {
            try {
                return reader.readLine(prompt);
            } catch (UserInterruptException ctrlC) {
                print("(type :q to quit, :q! to quit at once)");
            } catch (EndOfFileException ctrlD) {
                return null;
            }
        }
    }

    @Override
    public String readPassword(String prompt) {
        try {
            return reader.readLine(prompt, '*');
        } catch (UserInterruptException | EndOfFileException e) {
            return null;
        }
    }

    @Override
    public void print(String line) {
        reader.printAbove(line);
    }

    @Override
    public void close() {
        try {
            reader.getHistory().save();
            terminal.close();
        } catch (IOException e) {
            // closing at exit; nothing more to do with the terminal
        }
    }
}
