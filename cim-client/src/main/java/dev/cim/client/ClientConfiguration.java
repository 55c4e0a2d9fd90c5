package dev.cim.client;

import dev.cim.client.command.CommandParser;
import dev.cim.client.console.ChatView;
import dev.cim.client.console.Console;
import dev.cim.client.console.PipedConsole;
import dev.cim.client.console.ScheduleView;
import dev.cim.client.console.TerminalConsole;
import dev.cim.client.console.Times;
import dev.cim.client.console.UserZone;
import dev.cim.client.core.CimClient;
import dev.cim.client.core.ClientTls;
import dev.cim.client.core.SeenIds;
import dev.cim.common.protocol.UserNames;
import dev.cim.common.tls.TlsProvider;
import dev.cim.common.wheel.DelayScheduler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.ContextClosedEvent;

/** The client's parts, wired through their constructors. The wheel comes from cim-common's auto-configuration. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(CimClientProperties.class)
class ClientConfiguration {

    /** The ids of shown messages kept per user, so none is shown twice after a restart. */
    private static final int SEEN_IDS = 10_000;

    /** A JLine terminal when there is one; plain lines when input or output is piped. */
    @Bean
    Console console(CimClientProperties properties) {
        if (System.console() != null) {
            return new TerminalConsole("> ", ChatSession.COMMANDS, properties.getClient().getHistoryFile());
        }
        return new PipedConsole(System.in, System.out);
    }

    @Bean
    Clock clock(CimClientProperties properties) {
        String zone = properties.getClient().getTimeZone();
        if (zone == null || zone.isBlank()) {
            return Clock.systemDefaultZone();
        }
        try {
            return Clock.system(ZoneId.of(zone));
        } catch (DateTimeException e) {
            throw new ClientSetupException("cim.client.time-zone: '" + zone + "' is not a time zone "
                    + "(expected: a region such as Europe/Paris, or an offset such as +02:00)");
        }
    }

    /** The account's zone once the client has heard it (see {@link #cimClient}), else the clock's. */
    @Bean
    UserZone userZone(Clock clock) {
        return new UserZone(clock.getZone());
    }

    @Bean
    Times times(Clock clock, UserZone zone) {
        return new Times(clock, zone);
    }

    @Bean
    ChatView chatView(Console console, Times times, CimClientProperties properties) {
        String name = properties.getUser().getName();
        // The server knows every user in lower case: so must the view, to tell "you" from others.
        return new ChatView(console, times, name == null ? null : UserNames.canonical(name));
    }

    @Bean
    ScheduleView scheduleView(Console console, Times times) {
        return new ScheduleView(console, times);
    }

    @Bean
    CommandParser commandParser(CimClientProperties properties, Clock clock, UserZone zone) {
        return new CommandParser(properties.getClient().getMaxDelay(), properties.getClient().getMaxMessageLength(), clock,
                zone::get);
    }

    /** The client; the user's zone follows its account's zone from here on. */
    @Bean(destroyMethod = "close")
    CimClient cimClient(CimClientProperties properties, ChatView view, ScheduleView schedules, Console console,
            DelayScheduler wheel, UserZone zone) {
        CimClient built = build(properties, view, schedules, console, wheel);
        zone.follow(built::zone);
        return built;
    }

    private static CimClient build(CimClientProperties properties, ChatView view, ScheduleView schedules, Console console,
            DelayScheduler wheel) {
        CimClientProperties.User user = properties.getUser();
        UserNames.problem(user.getName()).ifPresent(problem -> {
            throw new ClientSetupException("cim.user.name: " + problem + "; start the client with --cim.user.name=<name>");
        });
        String me = UserNames.canonical(user.getName());
        CimClientProperties.Client client = properties.getClient();
        try {
            return CimClient.builder()
                    .tls(tls(client.getTls()))
                    .allowPlaintext(client.getTls().isAllowPlaintext())
                    .addresses(properties.getServer().effectiveAddresses())
                    .user(me)
                    .password(password(user, console))
                    .listener(new ConsoleListener(view, schedules, me))
                    .scheduler(wheel)
                    .seenIds(SeenIds.file(client.getStateDir().resolve(me).resolve("seen-ids"), SEEN_IDS))
                    .reconnectBackoff(client.getReconnectInitialBackoff(), client.getReconnectMaxBackoff())
                    .nearWindow(client.getNearWindow())
                    .build();
        } catch (IllegalArgumentException e) {
            throw new ClientSetupException(e.getMessage());
        } catch (IllegalStateException e) {
            boolean plaintext = e.getMessage().startsWith("plaintext to ");
            throw new ClientSetupException(e.getMessage() + (plaintext ? "; start the client with "
                    + "--cim.client.tls.enabled=true (and --cim.client.tls.trust=CERT.pem for a server whose certificate "
                    + "is self-signed), or accept plaintext with --cim.client.tls.allow-plaintext=true" : ""));
        }
    }

    /**
     * Ends the session (closes the client, and says what that left unconfirmed) when the context
     * starts to close: after a quit this does nothing; on SIGTERM it is where the user is told. It
     * runs before the wheel's drain (which runs every job on it at its due time, for up to
     * {@code cim.wheel.drain-timeout}): the client's jobs only make its scheduled messages punctual,
     * the server sends them anyway, so quitting does not wait for them. The client's destroy method
     * closes it again, which does nothing.
     */
    @Bean
    ApplicationListener<ContextClosedEvent> endSessionBeforeTheWheelDrains(ChatSession session) {
        return closing -> session.end();
    }

    /** TLS as {@code cim.client.tls.*} says, or null for plaintext. */
    private static ClientTls tls(CimClientProperties.Tls tls) {
        if (!tls.isOn()) {
            return null;
        }
        try {
            ClientTls clientTls = ClientTls.create(tls.getTrust(), TlsProvider.AUTO);
            String name = tls.getServerName();
            return name == null || name.isBlank() ? clientTls : clientTls.serverName(name);
        } catch (IllegalArgumentException e) {
            throw new ClientSetupException("cim.client.tls: " + e.getMessage());
        }
    }

    /** The password: the setting (say, CIM_USER_PASSWORD), else the password file, else a prompt on a terminal. */
    private static String password(CimClientProperties.User user, Console console) {
        if (user.getPassword() != null && !user.getPassword().isEmpty()) {
            return user.getPassword();
        }
        Path file = user.getPasswordFile();
        if (file != null) {
            try {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                if (!lines.isEmpty() && !lines.get(0).isEmpty()) {
                    return lines.get(0);
                }
                throw new ClientSetupException("cim.user.password-file: " + file + " is empty (expected: the password on its first line)");
            } catch (IOException e) {
                throw new ClientSetupException("cim.user.password-file: cannot read " + file + " (" + e.getMessage() + ")");
            }
        }
        String typed = console.readPassword("password for " + user.getName() + ": ");
        if (typed == null || typed.isEmpty()) {
            throw new ClientSetupException("no password for " + user.getName() + " (expected: typed at the prompt, "
                    + "or CIM_USER_PASSWORD in the environment, or --cim.user.password-file=<file>)");
        }
        return typed;
    }

    @Bean
    ChatSession chatSession(Console console, ChatView view, ScheduleView schedules, CommandParser parser,
            CimClient client, UserZone zone, CimClientProperties properties) {
        return new ChatSession(console, view, schedules, parser, client, zone, properties.getClient().getQuitGrace());
    }
}
