package dev.cim.common.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;

/**
 * Which TLS implementation a cim endpoint uses: Netty's OpenSSL binding (BoringSSL from
 * {@code netty-tcnative-boringssl-static}, native code that encrypts with fewer CPU cycles and less
 * garbage than the JDK's) where it loads, or the JDK's own.
 *
 * <p>The server and the load generator ship BoringSSL for Linux x86-64 and aarch64; the console
 * client does not (one connection does not need it, and it would add megabytes to the jar), so it
 * uses the JDK's. Settings read as {@code auto}, {@code openssl} or {@code jdk}.
 */
public enum TlsProvider {

    /** OpenSSL where it loads, else the JDK's. */
    AUTO,
    /** OpenSSL, or fail at start if it does not load here. */
    OPENSSL,
    /** The JDK's TLS. */
    JDK;

    /**
     * Netty's provider for this choice.
     *
     * @throws IllegalStateException for {@link #OPENSSL} when OpenSSL does not load here, saying why
     */
    public SslProvider resolve() {
        return switch (this) {
            case JDK -> SslProvider.JDK;
            case AUTO -> OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
            case OPENSSL -> {
                if (!OpenSsl.isAvailable()) {
                    Throwable why = OpenSsl.unavailabilityCause();
                    throw new IllegalStateException("the OpenSSL TLS provider does not load here ("
                            + (why == null ? "unknown reason" : why.getMessage())
                            + "); expected netty-tcnative-boringssl-static for this platform on the class path, "
                            + "or the provider set to auto or jdk");
                }
                yield SslProvider.OPENSSL;
            }
        };
    }

    /** {@code "OpenSSL (BoringSSL)"} or {@code "JDK"}: for logs and reports. */
    public static String describe(SslProvider provider) {
        return provider == SslProvider.JDK ? "JDK" : "OpenSSL (" + OpenSsl.versionString() + ")";
    }
}
