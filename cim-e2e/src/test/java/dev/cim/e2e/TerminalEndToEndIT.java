package dev.cim.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client on a real terminal (tmux): line editing, history and tab completion work, and a
 * message that arrives while a line is half typed appears above it without garbling it.
 */
class TerminalEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    static final CimSystem cim = new CimSystem();

    @Test
    void onATerminal_incomingMessagesGoAboveTheHalfTypedLineAndEditingWorks() throws Exception {
        JavaProcess bob = cim.client("termbob");
        Path history = Files.createTempFile("cim-history", "");
        List<String> client = cim.clientCommand("termalice", "--cim.client.history-file=" + history);
        try (Tmux terminal = Tmux.start("cim-e2e-" + ProcessHandle.current().pid(), client)) {
            terminal.awaitScreen(screen -> contains(screen, "logged in as termalice"), CimSystem.START, "the login");

            terminal.type("hello wrld");
            terminal.awaitScreen(screen -> lastLine(screen).equals("> hello wrld"), WAIT, "the half-typed line");
            bob.type("interrupting you");

            List<String> screen = terminal.awaitScreen(s -> contains(s, "termbob: interrupting you"), WAIT, "bob's message");
            assertThat(lastLine(screen)).as("the line being typed, redrawn below the message").isEqualTo("> hello wrld");

            terminal.keys("Left", "Left", "Left");
            terminal.type("o");
            terminal.keys("Enter");
            bob.await("termalice: hello world", WAIT);

            terminal.keys("Up");
            terminal.awaitScreen(s -> lastLine(s).equals("> hello world"), WAIT, "the history recalled by Up");
            terminal.keys("C-u");
            terminal.type(":ol");
            terminal.keys("Tab");
            terminal.awaitScreen(s -> lastLine(s).equals("> :olu"), WAIT, "':ol' completed to ':olu' by Tab");
            terminal.keys("Enter");
            terminal.awaitScreen(s -> contains(s, "online (2): termalice, termbob") || contains(s, "online (2): termbob, termalice"),
                    WAIT, "the online users");
        }
    }

    private static boolean contains(List<String> screen, String text) {
        return screen.stream().anyMatch(line -> line.contains(text));
    }

    private static String lastLine(List<String> screen) {
        for (int i = screen.size() - 1; i >= 0; i--) {
            if (!screen.get(i).isBlank()) {
                return screen.get(i);
            }
        }
        return "";
    }
}
