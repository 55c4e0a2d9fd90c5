package dev.cim.server.net;

/**
 * The chat port was to listen without TLS on an address that is not loopback, which the server
 * refuses unless told to; {@link PlaintextRefusedAnalyzer} explains it.
 */
public final class PlaintextRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String host;

    PlaintextRefusedException(String host) {
        super("plaintext on " + host + ", which is not a loopback address: passwords and messages would cross "
                + "the network in clear");
        this.host = host;
    }

    public String host() {
        return host;
    }
}
