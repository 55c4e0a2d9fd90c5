package dev.cim.client;

import dev.cim.common.protocol.ChatRules;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the console client, under {@code cim}: who logs in ({@code cim.user.*}), where
 * ({@code cim.server.*}), and how the client behaves ({@code cim.client.*}). On the command line:
 * {@code --cim.user.name=alice --cim.server.addresses=127.0.0.1:9000,127.0.0.1:9001}; in the
 * environment: {@code CIM_USER_PASSWORD=...}.
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

        /**
         * The password. Better not on the command line (other users of the machine can read it there):
         * in the environment as CIM_USER_PASSWORD, in a file (password-file), or typed at the prompt.
         */
        private String password;

        /** A file whose first line is the password. */
        private Path passwordFile;

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

        public Path getPasswordFile() {
            return passwordFile;
        }

        public void setPasswordFile(Path passwordFile) {
            this.passwordFile = passwordFile;
        }
    }

    /** The servers to connect to. */
    public static class Server {

        /** The servers, host:port[,host:port...], tried in turn; when empty, host and port below. */
        private String addresses = "";

        /** Host name or address of the cim server, when addresses is empty. */
        private String host = "127.0.0.1";

        /** TCP port of the cim server, when addresses is empty. */
        private int port = 9000;

        public String getAddresses() {
            return addresses;
        }

        public void setAddresses(String addresses) {
            this.addresses = addresses;
        }

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

        /** The servers to try: {@code addresses}, or {@code host:port}. */
        public String effectiveAddresses() {
            return addresses == null || addresses.isBlank() ? host + ":" + port : addresses;
        }
    }

    /**
     * TLS to the servers. Off by default, which is plaintext, and plaintext only to loopback
     * addresses (127.0.0.0/8, ::1, localhost): to any other address the client refuses to start
     * unless TLS is on or allow-plaintext is set, since the password would cross the network in
     * clear. With TLS the client verifies the server's certificate (trusted, and for the host it
     * connects to, or for server-name) before sending anything; a server that fails is refused
     * with one line and the client exits.
     */
    public static class Tls {

        /** True to connect with TLS. Setting trust turns it on too. */
        private boolean enabled;

        /**
         * A PEM file of the certificates to trust: the server's own self-signed certificate, or the
         * authority that signed it. Empty: the JDK's trust store (public authorities).
         */
        private Path trust;

        /** The name the server's certificate must be for; empty: the host of each address. */
        private String serverName = "";

        /** True to allow plaintext to addresses that are not loopback. */
        private boolean allowPlaintext;

        /** True when TLS is on: enabled, or a trust file given. */
        public boolean isOn() {
            return enabled || trust != null;
        }

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Path getTrust() {
            return trust;
        }

        public void setTrust(Path trust) {
            this.trust = trust;
        }

        public String getServerName() {
            return serverName;
        }

        public void setServerName(String serverName) {
            this.serverName = serverName;
        }

        public boolean isAllowPlaintext() {
            return allowPlaintext;
        }

        public void setAllowPlaintext(boolean allowPlaintext) {
            this.allowPlaintext = allowPlaintext;
        }
    }

    /** How the client behaves. */
    public static class Client {

        /** The longest delay :delay, :at and :move accept (the server may accept less, and says so). */
        private Duration maxDelay = Duration.ofDays(400);

        /** The most characters in one message. */
        private int maxMessageLength = ChatRules.MAX_TEXT_LENGTH;

        /** The first wait before reconnecting after the connection is lost; grows on each failure. */
        private Duration reconnectInitialBackoff = Duration.ofMillis(200);

        /** The longest wait between reconnection attempts. */
        private Duration reconnectMaxBackoff = Duration.ofSeconds(5);

        /** How long :q waits for the server to confirm the messages sent. */
        private Duration quitGrace = Duration.ofSeconds(30);

        /** How far ahead this client holds jobs for the user's scheduled messages. */
        private Duration nearWindow = Duration.ofHours(1);

        /** Where the terminal keeps the history of typed lines. */
        private Path historyFile = Path.of(System.getProperty("user.home"), ".cim_history");

        /** Where the client keeps the ids of the messages it has shown (so none is shown twice after a restart). */
        private Path stateDir = Path.of(System.getProperty("user.home"), ".cim", "client");

        /** The time zone of :at and of the times shown; empty for the system's. */
        private String timeZone = "";

        /** TLS to the servers. */
        private final Tls tls = new Tls();

        public Tls getTls() {
            return tls;
        }

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

        public Duration getNearWindow() {
            return nearWindow;
        }

        public void setNearWindow(Duration nearWindow) {
            this.nearWindow = nearWindow;
        }

        public Path getHistoryFile() {
            return historyFile;
        }

        public void setHistoryFile(Path historyFile) {
            this.historyFile = historyFile;
        }

        public Path getStateDir() {
            return stateDir;
        }

        public void setStateDir(Path stateDir) {
            this.stateDir = stateDir;
        }

        public String getTimeZone() {
            return timeZone;
        }

        public void setTimeZone(String timeZone) {
            this.timeZone = timeZone;
        }
    }
}
