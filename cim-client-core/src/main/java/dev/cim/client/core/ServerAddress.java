package dev.cim.client.core;

import dev.cim.common.net.Loopback;
import java.util.ArrayList;
import java.util.List;

/**
 * A server to connect to.
 *
 * @param host a host name or address
 * @param port a TCP port, 1 to 65535
 */
public record ServerAddress(String host, int port) {

    public ServerAddress {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host: '" + host + "' (expected: a host name or address)");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 1 to 65535)");
        }
    }

    /**
     * Reads {@code host:port}; IPv6 addresses in brackets, {@code [::1]:9000}.
     *
     * @throws IllegalArgumentException if {@code text} is not of that form
     */
    public static ServerAddress parse(String text) {
        String value = text == null ? "" : text.strip();
        int colon = value.lastIndexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not a server address (expected: host:port, e.g. 127.0.0.1:9000)");
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":") || host.contains("[") || host.contains("]")) {
            // "::1:9000" or "[::1:9000": the port cannot be told from the address without brackets
            throw new IllegalArgumentException("'" + text + "' is not a server address (expected: host:port, with "
                    + "an IPv6 address in brackets, e.g. [::1]:9000)");
        }
        try {
            return new ServerAddress(host, Integer.parseInt(value.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a server address (expected: host:port with a "
                    + "numeric port, e.g. 127.0.0.1:9000)");
        }
    }

    /**
     * Reads a comma-separated list of {@code host:port}.
     *
     * @throws IllegalArgumentException if the list is empty or an item is not an address
     */
    public static List<ServerAddress> parseList(String text) {
        List<ServerAddress> addresses = new ArrayList<>();
        for (String item : (text == null ? "" : text).split(",")) {
            if (!item.isBlank()) {
                addresses.add(parse(item));
            }
        }
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("no server address in '" + text + "' (expected: host:port[,host:port...])");
        }
        return List.copyOf(addresses);
    }

    /** True for {@code localhost} and loopback address literals ({@link Loopback}), where plaintext is allowed. */
    public boolean isLoopback() {
        return Loopback.isLoopback(host);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
