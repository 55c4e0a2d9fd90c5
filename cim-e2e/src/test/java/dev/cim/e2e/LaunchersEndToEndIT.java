package dev.cim.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.testkit.Ports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The README's commands, {@code bin/cim-server} and {@code bin/cim}, as a new user runs them: the
 * server starts (with its embedded Redis), the client logs in and quits. Both run with
 * {@code -Xshare:on}, with which the JVM refuses to start rather than run without the class-data
 * archive: so this also checks that the build trained both archives and that the launchers find them
 * (and, for the client, that the ahead-of-time bean definitions start it).
 */
class LaunchersEndToEndIT {

    private final Path projectDir = Path.of(System.getProperty("cim.project.dir", "..")).toAbsolutePath().normalize();

    @Test
    void theLaunchers_startTheServerAndTheClient_withTheirClassDataArchives() throws Exception {
        Path dataDir = Files.createTempDirectory("cim-e2e-launchers-");
        int port = Ports.free();
        // The Java that built the archives: an archive serves only the JVM that made it.
        String javaHome = System.getProperty("java.home");
        try (JavaProcess server = JavaProcess.startCommand("cim-server", List.of(
                        projectDir.resolve("bin/cim-server").toString(),
                        "--cim.server.port=" + port,
                        "--management.server.port=" + Ports.free(),
                        "--cim.server.web.port=0",
                        "--spring.data.redis.port=" + Ports.free(),
                        "--cim.server.data-dir=" + dataDir.resolve("redis")),
                Map.of("JAVA_HOME", javaHome, "CIM_SERVER_JAVA_OPTS", "-Xshare:on -Xmx256m"))) {
            server.await("listening on", CimSystem.START);

            try (JavaProcess client = JavaProcess.startCommand("cim", List.of(
                            projectDir.resolve("bin/cim").toString(),
                            "--cim.user.name=launcher",
                            "--cim.server.addresses=127.0.0.1:" + port,
                            "--cim.client.state-dir=" + dataDir.resolve("client"),
                            "--logging.file.name=" + dataDir.resolve("client.log")),
                    Map.of("JAVA_HOME", javaHome, "CIM_JAVA_OPTS", "-Xshare:on",
                            "CIM_USER_PASSWORD", "launcher-password"))) {
                client.await("logged in as launcher", Duration.ofSeconds(30));
                client.type(":q");
                client.await("bye", Duration.ofSeconds(10));
                assertThat(client.awaitExit(Duration.ofSeconds(10))).as(client.transcript()).isZero();
            }
        }
    }
}
