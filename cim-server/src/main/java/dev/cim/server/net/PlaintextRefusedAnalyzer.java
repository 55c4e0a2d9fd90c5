package dev.cim.server.net;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a {@link PlaintextRefusedException} in one line, with the three ways out. */
class PlaintextRefusedAnalyzer extends AbstractFailureAnalyzer<PlaintextRefusedException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, PlaintextRefusedException cause) {
        return new FailureAnalysis("cim server refuses to listen in " + cause.getMessage() + ".",
                "Turn TLS on with --cim.server.tls.certificate=CERT.pem --cim.server.tls.private-key=KEY.pem "
                        + "(README, Security), or listen on loopback only (--cim.server.host=127.0.0.1), or accept "
                        + "plaintext on the network with --cim.server.tls.allow-plaintext=true.",
                cause);
    }
}
