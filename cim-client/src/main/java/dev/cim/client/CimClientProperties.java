package dev.cim.client;

import dev.cim.common.protocol.ChatMessage;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the console client, under {@code cim}: who logs in ({@code cim.user.*}), where
 * ({@code cim.server.*}), and how the client behaves ({@code cim.client.*}). On the command line:
 * {@code --cim.user.name=alice --cim.user.password=secret --cim.server.port=9000}.
 */
@ConfigurationProperties("cim")
public class CimClientProperties {

    private final User user = new User();
    private final Server server = new Server();
    private final Client client = new Client();

    public User getUser() {
        return user;
    }

    public Server getServer() {
        return server;
    }

    public Client getClient() {
        return client;
    }

    /** Who logs in. The first login of a name creates the account with that password. */
    public static class User {

        /** The user name: 1 to 32 of A-Z a-z 0-9 _ - . ; required. */
        private String name;

        /** The password; required. */
        private String password;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public String getPassword() {
            return password;
        }

        public void setPassword(String password) {
            this.password = password;
        }
    }

    /** The server to connect to. */
    public static class Server {

        /** Host name or address of the cim server. */
        private String host = "127.0.0.1";

        /** TCP port of the cim server. */
        private int port = 9000;

        public String getHost() {
            return host;
        }

        public void setHost(String host) {
            this.host = host;
        }

        public int getPort() {
            return port;
        }

        public void setPort(int port) {
            this.port = port;
        }
    }

    /** How the client behaves. */
    public static class Client {

        /** The longest delay {@code :delay} accepts. */
        private Duration maxDelay = Duration.ofDays(30);

        /** The most characters in one message. */
        private int maxMessageLength = ChatMessage.MAX_TEXT_LENGTH;

        /** The first wait before reconnecting after the connection is lost; doubles on each failure. */
        private Duration reconnectInitialBackoff = Duration.ofMillis(200);

        /** The longest wait between reconnection attempts. */
        private Duration reconnectMaxBackoff = Duration.ofSeconds(5);

        /** How long {@code :q} waits, after the last delayed message is due, for everything to be sent and acknowledged. */
        private Duration quitGrace = Duration.ofSeconds(30);

        /** Where the terminal keeps the history of typed lines. */
        private Path historyFile = Path.of(System.getProperty("user.home"), ".cim_history");

        public Duration getMaxDelay() {
            return maxDelay;
        }

        public void setMaxDelay(Duration maxDelay) {
            this.maxDelay = maxDelay;
        }

        public int getMaxMessageLength() {
            return maxMessageLength;
        }

        public void setMaxMessageLength(int maxMessageLength) {
            this.maxMessageLength = maxMessageLength;
        }

        public Duration getReconnectInitialBackoff() {
            return reconnectInitialBackoff;
        }

        public void setReconnectInitialBackoff(Duration reconnectInitialBackoff) {
            this.reconnectInitialBackoff = reconnectInitialBackoff;
        }

        public Duration getReconnectMaxBackoff() {
            return reconnectMaxBackoff;
        }

        public void setReconnectMaxBackoff(Duration reconnectMaxBackoff) {
            this.reconnectMaxBackoff = reconnectMaxBackoff;
        }

        public Duration getQuitGrace() {
            return quitGrace;
        }

        public void setQuitGrace(Duration quitGrace) {
            this.quitGrace = quitGrace;
        }

        public Path getHistoryFile() {
            return historyFile;
        }

        public void setHistoryFile(Path historyFile) {
            this.historyFile = historyFile;
        }
    }
}
