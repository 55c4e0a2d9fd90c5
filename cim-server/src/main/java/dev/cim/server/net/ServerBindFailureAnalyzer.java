package dev.cim.server.net;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a {@link ServerBindException} in one line, with the fix. */
class ServerBindFailureAnalyzer extends AbstractFailureAnalyzer<ServerBindException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ServerBindException cause) {
        return new FailureAnalysis(
                "cim server cannot listen on " + cause.host() + ":" + cause.port() + " ("
                        + cause.getCause().getMessage() + ").",
                "Stop whatever uses port " + cause.port() + ", or choose another with --cim.server.port=PORT.",
                cause);
    }
}
