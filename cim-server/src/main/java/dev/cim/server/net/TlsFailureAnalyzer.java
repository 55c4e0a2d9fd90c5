package dev.cim.server.net;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a {@link TlsSetupException} in one line, with the fix. */
class TlsFailureAnalyzer extends AbstractFailureAnalyzer<TlsSetupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, TlsSetupException cause) {
        return new FailureAnalysis("cim server cannot set up TLS on its chat port: " + cause.getMessage() + ".",
                "Give --cim.server.tls.certificate=CERT.pem and --cim.server.tls.private-key=KEY.pem, PEM files "
                        + "of a certificate and its PKCS#8 key (README, Security, shows how to make them), or leave "
                        + "both unset for plaintext on loopback.",
                cause);
    }
}
