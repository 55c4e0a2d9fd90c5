package dev.cim.server.redis.embedded;

/** The embedded Redis could not start; {@link RedisFailureAnalyzer} turns it into advice. */
public final class EmbeddedRedisStartException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int port;

    EmbeddedRedisStartException(int port, String reason, Throwable cause) {
        super("embedded Redis could not start on 127.0.0.1:" + port + ": " + reason, cause);
        this.port = port;
    }

    /** The port it was to listen on. */
    public int port() {
        return port;
    }
}
