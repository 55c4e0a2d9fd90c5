package dev.cim.server.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made with the JDK's keytool, written as the
 * PEM files that OpenSSL programs (redis-server) and Spring Boot's PEM SSL bundles read.
 *
 * @param certificate the certificate, PEM
 * @param privateKey  its private key, PKCS#8 PEM, unencrypted
 */
public record TestCertificate(Path certificate, Path privateKey) {

    private static final char[] STORE_PASSWORD = "changeit".toCharArray();

    /** Makes one in {@code dir}. */
    public static TestCertificate create(Path dir) throws IOException, InterruptedException, GeneralSecurityException {
        Files.createDirectories(dir);
        Path store = dir.resolve("test.p12");
        Files.deleteIfExists(store);
        Process keytool = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                        "-genkeypair", "-alias", "test", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                        "-dname", "CN=localhost", "-ext", "san=ip:127.0.0.1,dns:localhost",
                        "-storetype", "PKCS12", "-keystore", store.toString(),
                        "-storepass", new String(STORE_PASSWORD), "-keypass", new String(STORE_PASSWORD)))
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes());
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, STORE_PASSWORD);
        }
        Certificate cert = keys.getCertificate("test");
        Key key = keys.getKey("test", STORE_PASSWORD);
        Path certificate = Files.writeString(dir.resolve("cert.pem"), pem("CERTIFICATE", cert.getEncoded()));
        Path privateKey = Files.writeString(dir.resolve("key.pem"), pem("PRIVATE KEY", key.getEncoded()));
        return new TestCertificate(certificate, privateKey);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
