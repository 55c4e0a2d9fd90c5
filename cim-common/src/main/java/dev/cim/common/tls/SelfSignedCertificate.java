package dev.cim.common.tls;

import io.netty.util.NetUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * A self-signed X.509 certificate and its private key, made here with nothing but the JDK: for the
 * load generator's TLS runs, for tests, and for trying TLS out. A client trusts it by being given
 * the certificate (its PEM file) as its trust; nothing else vouches for it.
 *
 * <h3>What it holds</h3>
 * An EC P-256 key signed with SHA256withECDSA; the subject and issuer are {@code CN=<commonName>};
 * the subject alternative names are the DNS names and IP addresses given, which is what a client's
 * host name check reads (a check against an IP address reads only IP entries). Valid from an hour
 * before it was made (for clocks a little behind) for {@code validity}.
 *
 * <h3>Why not a library</h3>
 * The JDK has no public API that writes a certificate; BouncyCastle does, but is megabytes, and
 * Netty's {@code SelfSignedCertificate} falls back to running {@code keytool} and writes no
 * subject alternative names. The DER below is the fixed shape of RFC 5280's TBSCertificate with
 * three fields that vary; the JDK parses the result back, so a malformed one fails at once.
 *
 * @param certificate the certificate
 * @param privateKey  its private key
 */
public record SelfSignedCertificate(X509Certificate certificate, PrivateKey privateKey) {

    private static final int[] ECDSA_WITH_SHA256 = {1, 2, 840, 10045, 4, 3, 2};
    private static final int[] COMMON_NAME = {2, 5, 4, 3};
    private static final int[] SUBJECT_ALT_NAME = {2, 5, 29, 17};
    private static final int[] BASIC_CONSTRAINTS = {2, 5, 29, 19};
    /** Dates before 2050 are UTCTime in a certificate, later ones GeneralizedTime (RFC 5280, 4.1.2.5). */
    private static final Instant GENERALIZED_FROM = Instant.parse("2050-01-01T00:00:00Z");

    public SelfSignedCertificate {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(privateKey, "privateKey");
    }

    /**
     * Makes a new key pair and a certificate for it.
     *
     * @param commonName the subject's (and issuer's) common name
     * @param names      DNS names and IP address literals the certificate is for; at least one
     * @param validity   how long it is valid from now
     * @throws IllegalArgumentException if {@code names} is empty or {@code validity} not positive
     */
    public static SelfSignedCertificate generate(String commonName, List<String> names, Duration validity) {
        if (commonName == null || commonName.isBlank()) {
            throw new IllegalArgumentException("commonName: '" + commonName + "' (expected: a name)");
        }
        if (names == null || names.isEmpty()) {
            throw new IllegalArgumentException("names: " + names + " (expected: at least one DNS name or IP address)");
        }
        if (validity == null || validity.isNegative() || validity.isZero()) {
            throw new IllegalArgumentException("validity: " + validity + " (expected: > 0)");
        }
        try {
            SecureRandom random = new SecureRandom();
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), random);
            KeyPair keys = generator.generateKeyPair();
            Instant now = Instant.now();
            byte[] serial = new byte[16];
            random.nextBytes(serial);
            byte[] name = name(commonName);
            byte[] algorithm = sequence(oid(ECDSA_WITH_SHA256));
            byte[] tbs = sequence(
                    tlv(0xA0, integer(BigInteger.TWO)), // [0] version: v3
                    integer(new BigInteger(1, serial)),
                    algorithm,
                    name,
                    sequence(time(now.minus(Duration.ofHours(1))), time(now.plus(validity))),
                    name,
                    keys.getPublic().getEncoded(), // SubjectPublicKeyInfo, as the JDK encodes it
                    tlv(0xA3, sequence( // [3] extensions
                            extension(BASIC_CONSTRAINTS, sequence()), // not a CA
                            extension(SUBJECT_ALT_NAME, subjectAltNames(names)))));
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(keys.getPrivate(), random);
            signer.update(tbs);
            byte[] der = sequence(tbs, algorithm, bitString(signer.sign()));
            X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new java.io.ByteArrayInputStream(der));
            return new SelfSignedCertificate(certificate, keys.getPrivate());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a self-signed certificate: " + e.getMessage(), e);
        }
    }

    /** The certificate as PEM ({@code -----BEGIN CERTIFICATE-----}). */
    public String certificatePem() {
        try {
            return pem("CERTIFICATE", certificate.getEncoded());
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The private key as unencrypted PKCS#8 PEM ({@code -----BEGIN PRIVATE KEY-----}). */
    public String privateKeyPem() {
        return pem("PRIVATE KEY", privateKey.getEncoded());
    }

    /**
     * Writes the certificate and the key as PEM files; the key file is readable by its owner only
     * where the file system has POSIX permissions.
     */
    public void write(Path certificateFile, Path privateKeyFile) throws IOException {
        Files.writeString(certificateFile, certificatePem(), StandardCharsets.US_ASCII);
        Files.deleteIfExists(privateKeyFile);
        try {
            Files.createFile(privateKeyFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(privateKeyFile);
        }
        Files.writeString(privateKeyFile, privateKeyPem(), StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    // DER, as much as a certificate needs (X.690).

    private static byte[] name(String commonName) {
        // Name ::= SEQUENCE OF RelativeDistinguishedName (a SET OF AttributeTypeAndValue)
        return sequence(tlv(0x31, sequence(oid(COMMON_NAME), tlv(0x0C, commonName.getBytes(StandardCharsets.UTF_8)))));
    }

    private static byte[] subjectAltNames(List<String> names) {
        List<byte[]> general = new ArrayList<>();
        for (String name : names) {
            byte[] ip = NetUtil.createByteArrayFromIpAddressString(name);
            if (ip != null) {
                general.add(tlv(0x87, ip)); // [7] iPAddress
            } else if (name.isEmpty() || !name.chars().allMatch(c -> c > 0x20 && c < 0x7F)) {
                throw new IllegalArgumentException("name: '" + name + "' (expected: a DNS name or an IP address)");
            } else {
                general.add(tlv(0x82, name.getBytes(StandardCharsets.US_ASCII))); // [2] dNSName
            }
        }
        return sequence(general.toArray(byte[][]::new));
    }

    private static byte[] extension(int[] oid, byte[] value) {
        return sequence(oid(oid), tlv(0x04, value));
    }

    private static byte[] time(Instant instant) {
        if (instant.isBefore(GENERALIZED_FROM)) {
            return tlv(0x17, ascii(DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC).format(instant)));
        }
        return tlv(0x18, ascii(DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").withZone(ZoneOffset.UTC).format(instant)));
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] integer(BigInteger value) {
        return tlv(0x02, value.toByteArray()); // two's complement, shortest form
    }

    private static byte[] bitString(byte[] bits) {
        byte[] content = new byte[bits.length + 1]; // first byte: no unused bits
        System.arraycopy(bits, 0, content, 1, bits.length);
        return tlv(0x03, content);
    }

    private static byte[] oid(int[] arcs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(40 * arcs[0] + arcs[1]);
        for (int i = 2; i < arcs.length; i++) {
            int arc = arcs[i];
            int shift = 28;
            while (shift > 0 && (arc >>> shift) == 0) {
                shift -= 7;
            }
            for (; shift > 0; shift -= 7) {
                out.write(0x80 | ((arc >>> shift) & 0x7F));
            }
            out.write(arc & 0x7F);
        }
        return tlv(0x06, out.toByteArray());
    }

    private static byte[] sequence(byte[]... parts) {
        return tlv(0x30, parts);
    }

    private static byte[] tlv(int tag, byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(length + 6);
        out.write(tag);
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
