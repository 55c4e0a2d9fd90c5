package dev.cim.loadgen.peer.xmpp;

/**
 * An XMPP server the load users log in to, and their one password: user {@code i} is
 * {@code u<i>@domain}.
 *
 * @param host     the address to connect to (no DNS lookup of the domain: the peer is local)
 * @param port     the client-to-server port
 * @param domain   the XMPP domain the users belong to
 * @param password every user's password
 */
public record XmppEndpoint(String host, int port, String domain, String password) {

    /** The domain and password {@code bin/peer-ejabberd} sets up. */
    public static final String PEER_DOMAIN = "localhost";
    public static final String PEER_PASSWORD = "cim-load";

    public XmppEndpoint {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host: '" + host + "' (expected: an address, e.g. 127.0.0.1)");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 1 to 65535)");
        }
        if (domain == null || domain.isBlank()) {
            throw new IllegalArgumentException("domain: '" + domain + "' (expected: the XMPP domain, e.g. localhost)");
        }
        if (password == null || password.isEmpty()) {
            throw new IllegalArgumentException("password: empty (expected: the users' password)");
        }
    }

    /** The peer {@code bin/peer-ejabberd} runs on 127.0.0.1:{@code port}. */
    public static XmppEndpoint peer(int port) {
        return new XmppEndpoint("127.0.0.1", port, PEER_DOMAIN, PEER_PASSWORD);
    }

    /** The user name (local part) of user {@code index}: {@code u<index>}. */
    public static String user(int index) {
        if (index < 0) {
            throw new IllegalArgumentException("user index: " + index + " (expected: >= 0)");
        }
        return "u" + index;
    }
}
