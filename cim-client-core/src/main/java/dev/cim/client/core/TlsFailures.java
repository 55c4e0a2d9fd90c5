package dev.cim.client.core;

import dev.cim.common.Failures;
import io.netty.handler.ssl.NotSslRecordException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;

/**
 * Tells a failed TLS handshake that trying again cannot fix (the server's certificate is refused,
 * or the server does not speak TLS) from one that it may (a timeout, a connection cut), and says the
 * first kind in one line.
 */
final class TlsFailures {

    private TlsFailures() {
    }

    /**
     * One line saying what is wrong, when {@code cause} is a matter of configuration (or an
     * attack); null when the handshake was merely cut short.
     */
    static String configurationProblem(ServerAddress address, Throwable cause, ClientTls tls) {
        CertificateException certificate = null;
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NotSslRecordException) {
                return "the server at " + address + " does not speak TLS (expected: a server with TLS turned on, "
                        + "or this client set for plaintext)";
            }
            if (t instanceof CertificateException c && certificate == null) {
                certificate = c;
            }
        }
        if (certificate == null) {
            return null;
        }
        return "the server at " + address + " failed TLS verification: " + problem(certificate, address, tls)
                + "; trusting " + tls.trust();
    }

    private static String problem(CertificateException certificate, ServerAddress address, ClientTls tls) {
        String detail = Failures.rootMessage(certificate);
        for (Throwable t = certificate; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CertificateExpiredException || t instanceof CertificateNotYetValidException) {
                return "its certificate is not valid now (" + detail + ")";
            }
            if (t instanceof CertPathBuilderException) {
                return "its certificate is not signed by anyone trusted (" + detail + ")";
            }
        }
        String message = String.valueOf(certificate.getMessage());
        if (message.startsWith("No subject alternative") || message.startsWith("No name matching")) {
            return "its certificate is not for " + tls.expectedName(address) + " (" + message + ")";
        }
        if (message.contains("PKIX path")) {
            return "its certificate is not signed by anyone trusted (" + detail + ")";
        }
        return "its certificate was refused (" + detail + ")";
    }
}
