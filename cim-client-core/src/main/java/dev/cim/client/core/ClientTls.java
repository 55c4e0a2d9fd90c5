package dev.cim.client.core;

import dev.cim.common.Failures;
import dev.cim.common.tls.TlsProvider;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import javax.net.ssl.SSLException;

/**
 * How a client speaks TLS to its servers ({@link CimClientBuilder#tls}): which certificates it
 * trusts, and which name it expects the server's certificate to be for.
 *
 * <h3>Verification</h3>
 * The server's certificate must chain to a trusted certificate (those of a PEM file, or the JDK's
 * trust store: {@code cacerts}, or the one named by {@code -Djavax.net.ssl.trustStore}) and be
 * for the host the client connects to, as HTTPS checks it: a DNS name against the certificate's
 * DNS names, an IP address against its IP addresses. {@link #serverName(String)} checks another
 * name instead (and sends it as SNI), for a server reached by an address its certificate does not
 * name. A server that fails either check is refused before the client sends anything, its password
 * least of all, and the client stops ({@link CimException.Reason#TLS_FAILED}).
 *
 * <h3>Sharing</h3>
 * Building one reads the trust and makes a TLS context, which costs milliseconds and, with OpenSSL,
 * native memory; a program with many clients builds one and gives it to all of them. Immutable and
 * thread-safe. TLS 1.3 and 1.2 only.
 */
public final class ClientTls {

    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final SslContext context;
    private final SslProvider provider;
    private final String trust;
    private final String serverName;

    private ClientTls(SslContext context, SslProvider provider, String trust, String serverName) {
        this.context = context;
        this.provider = provider;
        this.trust = trust;
        this.serverName = serverName;
    }

    /** TLS trusting the certificates in a PEM file (a self-signed server certificate, or a private CA). */
    public static ClientTls trusting(Path pemFile) {
        return create(Objects.requireNonNull(pemFile, "pemFile"), TlsProvider.AUTO);
    }

    /** TLS trusting the JDK's trust store: for servers with certificates from a public authority. */
    public static ClientTls systemTrust() {
        return create(null, TlsProvider.AUTO);
    }

    /**
     * TLS trusting the certificates in {@code pemFile}, or the JDK's trust store when it is null,
     * with the TLS implementation {@code provider} picks.
     *
     * @throws IllegalArgumentException if the file cannot be read as PEM certificates, or the
     *         provider is not available, saying which
     */
    public static ClientTls create(Path pemFile, TlsProvider provider) {
        Objects.requireNonNull(provider, "provider");
        SslProvider sslProvider;
        try {
            sslProvider = provider.resolve();
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException("TLS provider " + provider + ": " + e.getMessage(), e);
        }
        SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(sslProvider).protocols(PROTOCOLS)
                .endpointIdentificationAlgorithm("HTTPS");
        String trust = "the JDK's trust store";
        if (pemFile != null) {
            if (!Files.isRegularFile(pemFile) || !Files.isReadable(pemFile)) {
                throw new IllegalArgumentException("TLS trust: " + pemFile.toAbsolutePath()
                        + (Files.exists(pemFile) ? " cannot be read" : " does not exist")
                        + " (expected: a PEM file of the certificates to trust)");
            }
            try {
                builder.trustManager(pemFile.toFile());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("TLS trust: no PEM certificate can be read from " + pemFile
                        + " (" + Failures.rootMessage(e) + ")", e);
            }
            trust = "the certificates in " + pemFile;
        }
        try {
            return new ClientTls(builder.build(), sslProvider, trust, null);
        } catch (SSLException | RuntimeException e) {
            throw new IllegalArgumentException("TLS: cannot make a context trusting " + trust + " ("
                    + Failures.rootMessage(e) + ")", e);
        }
    }

    /**
     * The same, but expecting the servers' certificates to be for {@code name} whatever address the
     * client connects to.
     */
    public ClientTls serverName(String name) {
        if (name == null || name.isBlank() || name.contains(" ")) {
            throw new IllegalArgumentException("TLS server name: '" + name + "' (expected: a host name or address)");
        }
        return new ClientTls(context, provider, trust, name.strip());
    }

    /** The name checked instead of each address's host, or null. */
    public String serverName() {
        return serverName;
    }

    /** "OpenSSL (BoringSSL)" or "JDK". */
    public String provider() {
        return TlsProvider.describe(provider);
    }

    /** What is trusted: "the certificates in FILE" or "the JDK's trust store". */
    public String trust() {
        return trust;
    }

    /** The name the certificate of the server at {@code address} must be for. */
    String expectedName(ServerAddress address) {
        return serverName != null ? serverName : address.host();
    }

    /** A handler for a connection to {@code address}; the handshake starts when the connection does. */
    SslHandler newHandler(ByteBufAllocator allocator, ServerAddress address) {
        return context.newHandler(allocator, expectedName(address), address.port());
    }

    @Override
    public String toString() {
        return "TLS by " + provider() + " trusting " + trust + (serverName == null ? "" : ", server name " + serverName);
    }
}
