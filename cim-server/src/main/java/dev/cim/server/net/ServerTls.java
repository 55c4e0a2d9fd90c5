package dev.cim.server.net;

import dev.cim.common.Failures;
import dev.cim.common.tls.TlsProvider;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chat port's TLS: the certificate and key read, checked and made into one Netty
 * {@link SslContext} at start, from which each connection gets its own {@link SslHandler}.
 *
 * <p>Checked at start, so a mistake stops the server with one line ({@link TlsSetupException})
 * instead of failing every handshake later: both files readable, the key and certificate PEM that
 * Netty reads, the key the certificate's own (a signature made with it verifies with the
 * certificate's public key), and the provider asked for available. An expired certificate, or one
 * not yet valid, is only logged: clients refuse it with their own clear line, and a server that
 * would not start for it could not even tell its clients to go elsewhere.
 *
 * <p>TLS 1.3 and 1.2 only; the provider's default cipher suites.
 */
public final class ServerTls {

    private static final Logger log = LoggerFactory.getLogger(ServerTls.class);
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final SslContext context;
    private final String description;

    private ServerTls(SslContext context, String description) {
        this.context = context;
        this.description = description;
    }

    /**
     * Reads and checks the certificate and key, and builds the context.
     *
     * @param keyPassword the password of an encrypted key, or null or empty for none
     * @throws TlsSetupException saying what is wrong, in one line
     */
    public static ServerTls load(Path certificate, Path privateKey, String keyPassword, TlsProvider provider) {
        readable(certificate, "certificate");
        readable(privateKey, "private-key");
        String password = keyPassword == null || keyPassword.isEmpty() ? null : keyPassword;
        SslProvider sslProvider;
        try {
            sslProvider = provider.resolve();
        } catch (IllegalStateException e) {
            throw new TlsSetupException("cim.server.tls.provider=" + provider.name().toLowerCase(java.util.Locale.ROOT)
                    + ": " + e.getMessage(), e);
        }
        X509Certificate[] chain;
        PrivateKey key;
        try {
            chain = Pem.certificates(certificate.toFile());
        } catch (Exception e) {
            throw new TlsSetupException("cim.server.tls.certificate: cannot read a PEM certificate from " + certificate
                    + " (" + Failures.rootMessage(e) + ")", e);
        }
        try {
            key = Pem.privateKey(privateKey.toFile(), password);
        } catch (Exception e) {
            throw new TlsSetupException("cim.server.tls.private-key: cannot read a PKCS#8 PEM private key from "
                    + privateKey + (password == null ? " without a password" : " with the password given") + " ("
                    + Failures.rootMessage(e) + "; a key in another form converts with `openssl pkcs8 -topk8 -in KEY "
                    + "-out key.pem -nocrypt`, or `-v2 aes-256-cbc` instead of `-nocrypt` to keep it encrypted)", e);
        }
        if (chain.length == 0) {
            throw new TlsSetupException("cim.server.tls.certificate: no certificate in " + certificate);
        }
        if (!belongTogether(key, chain[0].getPublicKey())) {
            throw new TlsSetupException("cim.server.tls.private-key: the key in " + privateKey
                    + " is not the key of the certificate in " + certificate + " (" + chain[0].getSubjectX500Principal() + ")");
        }
        SslContext context;
        try {
            context = SslContextBuilder.forServer(key, chain).sslProvider(sslProvider).protocols(PROTOCOLS).build();
        } catch (SSLException | RuntimeException e) {
            throw new TlsSetupException("cannot make a TLS context of " + certificate + " and " + privateKey + " ("
                    + Failures.rootMessage(e) + ")", e);
        }
        X509Certificate leaf = chain[0];
        Instant now = Instant.now();
        if (now.isAfter(leaf.getNotAfter().toInstant()) || now.isBefore(leaf.getNotBefore().toInstant())) {
            log.warn("The TLS certificate {} ({}) is valid only from {} to {}: clients will refuse it", certificate,
                    leaf.getSubjectX500Principal(), leaf.getNotBefore().toInstant(), leaf.getNotAfter().toInstant());
        }
        return new ServerTls(context, "TLS by " + TlsProvider.describe(sslProvider) + ", certificate "
                + leaf.getSubjectX500Principal() + " valid until " + leaf.getNotAfter().toInstant());
    }

    /**
     * A handler for a new connection; its handshake fails (and the connection closes) after
     * {@code handshakeTimeout}.
     */
    SslHandler newHandler(ByteBufAllocator allocator, Duration handshakeTimeout) {
        SslHandler handler = context.newHandler(allocator);
        handler.setHandshakeTimeout(handshakeTimeout.toMillis(), TimeUnit.MILLISECONDS);
        return handler;
    }

    /** "TLS by OpenSSL (BoringSSL), certificate CN=..., valid until ...", for the start-up log. */
    public String description() {
        return description;
    }

    private static void readable(Path file, String setting) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new TlsSetupException("cim.server.tls." + setting + ": " + file.toAbsolutePath()
                    + (Files.exists(file) ? " cannot be read" : " does not exist") + " (expected: a PEM file)");
        }
    }

    /** A signature made with {@code key} verifies with {@code publicKey}; true when it cannot be told. */
    private static boolean belongTogether(PrivateKey key, PublicKey publicKey) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> null;
        };
        if (algorithm == null || !key.getAlgorithm().equals(publicKey.getAlgorithm())) {
            return algorithm == null;
        }
        try {
            byte[] nonce = new byte[32];
            new SecureRandom().nextBytes(nonce);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(nonce);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(publicKey);
            verifier.update(nonce);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /**
     * Netty's PEM readers, which are protected members of {@link SslContext}: this subclass is never
     * instantiated, it only reaches them, so certificates and keys are read exactly as Netty reads
     * them for its own contexts (PKCS#8 keys, encrypted or not; certificate chains).
     */
    private abstract static class Pem extends SslContext {

        static X509Certificate[] certificates(File file) throws java.security.cert.CertificateException {
            return toX509Certificates(file);
        }

        static PrivateKey privateKey(File file, String password) throws Exception {
            return toPrivateKey(file, password);
        }
    }
}
