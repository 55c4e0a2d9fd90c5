package dev.cim.server.redis.embedded;

import dev.cim.common.Failures;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.RedisConnectionFailureException;

/**
 * Turns a start-up that failed for want of Redis into one line saying what is wrong and one saying
 * how to fix it, instead of a stack trace. Registered in {@code META-INF/spring.factories}; Spring
 * Boot passes the {@link Environment} to the constructor.
 *
 * <p>It recognises {@link EmbeddedRedisStartException} (embedded mode: the port is taken or the
 * process failed) and {@link RedisConnectionFailureException} (the Redis at
 * {@code spring.data.redis.host:port} cannot be reached, or refused the username or password).
 */
class RedisFailureAnalyzer implements FailureAnalyzer {

    private final Environment environment;

    RedisFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        EmbeddedRedisStartException embedded = findCause(failure, EmbeddedRedisStartException.class);
        if (embedded != null) {
            int port = embedded.port();
            String elsewhere = "use a running Redis with --cim.server.redis.embedded=false "
                    + "--spring.data.redis.host=HOST --spring.data.redis.port=PORT.";
            String reason = reason(embedded);
            return new FailureAnalysis(
                    "cim could not start its embedded Redis on 127.0.0.1:" + port + ": " + reason + ".",
                    reason.contains("already in use")
                            ? "Free port " + port + ", or choose another with --spring.data.redis.port=PORT, or "
                                    + elsewhere
                            : "Fix what is said above, or " + elsewhere,
                    embedded);
        }
        RedisConnectionFailureException unreachable = findCause(failure, RedisConnectionFailureException.class);
        if (unreachable != null) {
            String where = environment.getProperty("spring.data.redis.host", "localhost") + ":"
                    + environment.getProperty("spring.data.redis.port", "6379");
            String root = Failures.rootMessage(unreachable);
            if (!refusedCredentials(root) && !untrustedCertificate(root)) {
                // Lettuce may report a refused password as a lost connection (its reconnection after
                // the failed handshake): ask Redis itself.
                String answer = CredentialProbe.answer(environment);
                if (answer != null && refusedCredentials(answer)) {
                    root = answer;
                }
            }
            if (refusedCredentials(root)) {
                return new FailureAnalysis(
                        "Redis at " + where + " refused cim's credentials (" + root + ").",
                        "Give the user and password Redis expects with spring.data.redis.username and "
                                + "spring.data.redis.password (best in the environment, SPRING_DATA_REDIS_PASSWORD, "
                                + "not on the command line). For a node's embedded Redis, the password is in "
                                + EmbeddedRedisServer.PASSWORD_FILE + " in its data directory.",
                        unreachable);
            }
            if (untrustedCertificate(root)) {
                return new FailureAnalysis(
                        "cim does not trust the certificate of Redis at " + where + " (" + root + ").",
                        "Trust Redis' certificate (or its CA) with --spring.data.redis.ssl.bundle=NAME and "
                                + "--spring.ssl.bundle.pem.NAME.truststore.certificate=FILE, or connect to the name or "
                                + "address the certificate was issued for.",
                        unreachable);
            }
            return new FailureAnalysis(
                    "cim cannot reach Redis at " + where + " (" + root + ").",
                    "Start Redis at " + where + ", point --spring.data.redis.host and --spring.data.redis.port "
                            + "at a running one, or let cim run its own with --cim.server.redis.embedded=true.",
                    unreachable);
        }
        return null;
    }

    /** Redis' answers to a missing or wrong password (AUTH, or HELLO with AUTH). */
    private static boolean refusedCredentials(String message) {
        return message.contains("NOAUTH") || message.contains("WRONGPASS") || message.contains("invalid password")
                || message.contains("invalid username-password");
    }

    /** The JDK's answers to a certificate it cannot verify, or made out for another name. */
    private static boolean untrustedCertificate(String message) {
        return message.contains("certification path") || message.contains("No subject alternative")
                || message.contains("No name matching");
    }

    private static String reason(EmbeddedRedisStartException e) {
        String message = e.getMessage();
        int colon = message.indexOf(": ");
        return colon < 0 ? message : message.substring(colon + 2);
    }

    private static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }
}
