package dev.cim.server;

import dev.cim.common.Failures;
import dev.cim.server.account.AccountService;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The operator's account commands, run beside a server on the same machine and settings:
 * <pre>
 *   cim-server account add NAME      creates an account (with registration closed, the only way in)
 *   cim-server account passwd NAME   gives it a new password and ends its sessions
 *   cim-server account revoke NAME   ends its sessions: its clients must log in with the password again
 * </pre>
 * The password is asked twice on the terminal, or read as one line from standard input when piped;
 * never from the command line, which other users can read. The arguments after the name are the
 * server's own settings ({@code --cim.server.data-dir}, {@code --spring.data.redis.port}, ...), so the
 * tool finds the server's Redis as the server does: with the embedded Redis, the running server's,
 * through the password kept in its data directory.
 *
 * <p>It is the server application in the {@value #PROFILE} profile: the accounts' beans and Redis
 * (as {@link AccountConfiguration} wires them), no chat port, no embedded Redis of its own, no HTTP.
 */
public final class AccountTool {

    /** The Spring profile the tool runs in; the serving configuration is left out of it. */
    public static final String PROFILE = "account-tool";

    static final int OK = 0;
    static final int REFUSED = 1;
    static final int USAGE = 2;

    private static final String USAGE_TEXT = """
            usage: cim-server account add|passwd|revoke NAME [--server.setting=value ...]
              add     create the account NAME (the password is asked twice, or read from standard input)
              passwd  give NAME a new password, and end its sessions
              revoke  end every session of NAME (its clients must log in with the password again)""";

    private final BufferedReader in;
    private final Console console;
    private final PrintStream out;

    AccountTool(BufferedReader in, Console console, PrintStream out) {
        this.in = in;
        this.console = console;
        this.out = out;
    }

    /** Runs the tool on this process' terminal; returns the exit status. */
    static int runOnTerminal(String[] args) {
        return new AccountTool(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
                System.console(), System.out).run(args);
    }

    /** {@code args} without the leading "account"; returns the exit status, having printed one line. */
    int run(String[] args) {
        if (args.length < 2 || !Arrays.asList("add", "passwd", "revoke").contains(args[0])) {
            out.println(USAGE_TEXT);
            return USAGE;
        }
        String action = args[0];
        String name = args[1];
        String[] settings = Arrays.copyOfRange(args, 2, args.length);
        String password = null;
        if (!action.equals("revoke")) {
            Optional<String> read = readPassword(name);
            if (read.isEmpty()) {
                return REFUSED;
            }
            password = read.get();
        }
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(CimServerApplication.class)
                .profiles(PROFILE)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                // The one line printed here is the answer; --logging.level.root=warn shows the rest.
                .properties("logging.level.root=off")
                .run(settings)) {
            AccountService accounts = context.getBean(AccountService.class);
            return switch (action) {
                case "add" -> report(accounts.register(name, password), "created the account " + name);
                case "passwd" -> report(accounts.changePassword(name, password),
                        "changed the password of " + name + " and ended its sessions");
                default -> revoke(accounts, name);
            };
        } catch (RuntimeException e) {
            out.println("error: " + Failures.rootMessage(e) + " (expected: the server running on this machine, with "
                    + "the same --cim.server.data-dir and --spring.data.redis.port as given here)");
            return REFUSED;
        }
    }

    private int revoke(AccountService accounts, String name) {
        if (!accounts.exists(name)) {
            out.println("error: there is no account " + name);
            return REFUSED;
        }
        long ended = accounts.revokeSessions(name);
        out.println("ended " + ended + (ended == 1 ? " session" : " sessions") + " of " + name);
        return OK;
    }

    private int report(Optional<String> problem, String success) {
        if (problem.isPresent()) {
            out.println("error: " + problem.get());
            return REFUSED;
        }
        out.println(success);
        return OK;
    }

    private Optional<String> readPassword(String name) {
        if (console != null) {
            char[] first = console.readPassword("new password for %s: ", name);
            char[] again = first == null ? null : console.readPassword("the same again: ");
            if (first == null || again == null || !Arrays.equals(first, again)) {
                out.println("error: the two passwords differ (expected: the same password twice)");
                return Optional.empty();
            }
            return Optional.of(new String(first));
        }
        try {
            String line = in.readLine();
            if (line == null || line.isEmpty()) {
                out.println("error: no password on standard input (expected: one line with the password)");
                return Optional.empty();
            }
            return Optional.of(line);
        } catch (IOException e) {
            out.println("error: cannot read the password: " + e.getMessage());
            return Optional.empty();
        }
    }
}
