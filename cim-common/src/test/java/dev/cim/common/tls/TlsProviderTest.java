package dev.cim.common.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import org.junit.jupiter.api.Test;

/** cim-common does not ship netty-tcnative: here OpenSSL never loads, which is the case to check. */
class TlsProviderTest {

    @Test
    void jdk_isTheJdks() {
        assertThat(TlsProvider.JDK.resolve()).isEqualTo(SslProvider.JDK);
        assertThat(TlsProvider.describe(SslProvider.JDK)).isEqualTo("JDK");
    }

    @Test
    void auto_fallsBackToTheJdk_whereOpenSslDoesNotLoad() {
        assumeFalse(OpenSsl.isAvailable(), "netty-tcnative is on this class path");
        assertThat(TlsProvider.AUTO.resolve()).isEqualTo(SslProvider.JDK);
    }

    @Test
    void openssl_whereItDoesNotLoad_failsSayingWhatToDo() {
        assumeFalse(OpenSsl.isAvailable(), "netty-tcnative is on this class path");
        assertThatThrownBy(TlsProvider.OPENSSL::resolve)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the OpenSSL TLS provider does not load here (")
                .hasMessageEndingWith("expected netty-tcnative-boringssl-static for this platform on the class path, "
                        + "or the provider set to auto or jdk");
    }
}
