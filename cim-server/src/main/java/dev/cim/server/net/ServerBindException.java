package dev.cim.server.net;

/** The server could not listen on its address; {@link ServerBindFailureAnalyzer} explains it. */
public final class ServerBindException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String host;
    private final int port;

    ServerBindException(String host, int port, Throwable cause) {
        super("cannot listen on " + host + ":" + port + ": " + cause.getMessage(), cause);
        this.host = host;
        this.port = port;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }
}
