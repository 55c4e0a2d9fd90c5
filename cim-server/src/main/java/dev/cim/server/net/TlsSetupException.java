package dev.cim.server.net;

/** The chat port's TLS cannot be set up as configured; {@link TlsFailureAnalyzer} explains it. */
public final class TlsSetupException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    TlsSetupException(String message) {
        super(message);
    }

    TlsSetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
