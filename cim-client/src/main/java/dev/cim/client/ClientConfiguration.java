package dev.cim.client;

import dev.cim.client.command.CommandParser;
import dev.cim.client.console.ChatView;
import dev.cim.client.console.Console;
import dev.cim.client.console.PipedConsole;
import dev.cim.client.console.TerminalConsole;
import dev.cim.client.delay.DelayedMessages;
import dev.cim.client.net.ServerConnection;
import dev.cim.common.protocol.UserNames;
import dev.cim.common.wheel.DelayScheduler;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The client's parts, wired through their constructors. The wheel comes from cim-common's auto-configuration. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(CimClientProperties.class)
class ClientConfiguration {

    /** A JLine terminal when there is one; plain lines when input or output is piped. */
    @Bean
    Console console(CimClientProperties properties) {
        if (System.console() != null) {
            return new TerminalConsole("> ", ChatSession.COMMANDS, properties.getClient().getHistoryFile());
        }
        return new PipedConsole(System.in, System.out);
    }

    @Bean
    ChatView chatView(Console console, Clock clock) {
        return new ChatView(console, clock.getZone());
    }

    @Bean
    Clock clock() {
        return Clock.systemDefaultZone();
    }

    @Bean
    CommandParser commandParser(CimClientProperties properties) {
        return new CommandParser(properties.getClient().getMaxDelay(), properties.getClient().getMaxMessageLength());
    }

    @Bean
    ServerConnection serverConnection(CimClientProperties properties, ChatView view) {
        CimClientProperties.User user = properties.getUser();
        UserNames.problem(user.getName()).ifPresent(problem -> {
            throw new ClientSetupException("cim.user.name: " + problem
                    + "; start the client with --cim.user.name=<name> --cim.user.password=<password>");
        });
        if (user.getPassword() == null || user.getPassword().isEmpty()) {
            throw new ClientSetupException("cim.user.password is required; start the client with --cim.user.password=<password>");
        }
        CimClientProperties.Client client = properties.getClient();
        return new ServerConnection(properties.getServer().getHost(), properties.getServer().getPort(), user.getName(),
                user.getPassword(), view, client.getReconnectInitialBackoff(), client.getReconnectMaxBackoff());
    }

    @Bean
    DelayedMessages delayedMessages(DelayScheduler wheel, ServerConnection connection, ChatView view) {
        return new DelayedMessages(wheel, connection, view::info);
    }

    @Bean
    ChatSession chatSession(Console console, ChatView view, CommandParser parser, ServerConnection connection,
            DelayedMessages delayed, CimClientProperties properties, Clock clock) {
        return new ChatSession(console, view, parser, connection, delayed, properties.getClient().getQuitGrace(), clock);
    }
}
