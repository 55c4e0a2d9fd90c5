package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.MessageIds;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.LoginResult;
import dev.cim.server.support.RawClient;
import dev.cim.server.support.TestServer;
import dev.cim.testkit.Ports;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;

/**
 * The account tool against a running server with closed registration: the only way to make an
 * account there, to reset a password, and to end sessions; and one clear line when it cannot reach
 * the server's Redis.
 */
class AccountToolTest {

    private static TestServer server;
    private static List<String> serverSettings;

    @BeforeAll
    static void startServer() {
        server = TestServer.start("--cim.server.accounts.registration=closed");
        serverSettings = List.of(
                "--spring.data.redis.port=" + server.bean(DataRedisProperties.class).getPort(),
                "--cim.server.data-dir=" + server.bean(CimServerProperties.class).dataDir());
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    /** What a run printed, and its exit status. */
    private record Run(int status, String output) {
    }

    private static Run tool(String stdin, List<String> settings, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(settings);
        int status = new AccountTool(new BufferedReader(new StringReader(stdin)), null,
                new PrintStream(out, true, StandardCharsets.UTF_8)).run(all.toArray(String[]::new));
        return new Run(status, out.toString(StandardCharsets.UTF_8).strip());
    }

    private static Run tool(String stdin, String... args) {
        return tool(stdin, serverSettings, args);
    }

    private static LoginResult login(String user, String password, String token) {
        try (RawClient client = RawClient.connect(server.port())) {
            client.send(Envelopes.login(user, password, token, MessageIds.newOrigin()));
            return client.await("the login result", Envelope::hasLoginResult).getLoginResult();
        }
    }

    @Test
    void add_makesTheOnlyAccountsAClosedServerAccepts() {
        assertThat(login("carol", "carol's password", "").getReason())
                .contains("there is no account carol and this server's registration is closed");

        Run added = tool("carol's password\n", "add", "Carol");

        assertThat(added).isEqualTo(new Run(AccountTool.OK, "created the account Carol"));
        assertThat(login("carol", "carol's password", "").getOk()).isTrue();
        assertThat(tool("another password\n", "add", "carol"))
                .isEqualTo(new Run(AccountTool.REFUSED, "error: the account carol exists already"));
        assertThat(tool("another password\n", "add", "caro1").output()).contains("looks too much like");
        assertThat(tool("short\n", "add", "dave").output())
                .isEqualTo("error: the password is too short (expected: at least 8 characters)");
        assertThat(tool("", "add", "dave").output())
                .isEqualTo("error: no password on standard input (expected: one line with the password)");
    }

    @Test
    void passwd_changesThePasswordAndEndsTheSessions_revokeEndsThem() {
        tool("erin's password\n", "add", "erin");
        String token = login("erin", "erin's password", "").getSessionToken();

        assertThat(tool("erin's new password\n", "passwd", "erin"))
                .isEqualTo(new Run(AccountTool.OK, "changed the password of erin and ended its sessions"));

        assertThat(login("erin", "", token).getReason()).contains("has expired or was ended");
        assertThat(login("erin", "erin's password", "").getReason()).isEqualTo("wrong password for erin");
        String newToken = login("erin", "erin's new password", "").getSessionToken();
        assertThat(tool("", "revoke", "erin")).isEqualTo(new Run(AccountTool.OK, "ended 1 session of erin"));
        assertThat(login("erin", "", newToken).getReason()).contains("has expired or was ended");
        assertThat(tool("", "revoke", "nobody").output()).isEqualTo("error: there is no account nobody");
        assertThat(tool("x\n", "passwd", "nobody1").output()).startsWith("error: the password is too short");
        assertThat(tool("long enough password\n", "passwd", "nobody1").output())
                .isEqualTo("error: there is no account nobody1");
    }

    @Test
    void withoutTheServersRedis_saysWhatItExpected() throws IOException {
        Path empty = Files.createTempDirectory("cim-tool-test-");

        Run noPassword = tool("", List.of("--spring.data.redis.port=" + Ports.free(),
                "--cim.server.data-dir=" + empty), "revoke", "carol");

        assertThat(noPassword.status()).isEqualTo(AccountTool.REFUSED);
        assertThat(noPassword.output()).startsWith("error: no embedded Redis password in " + empty)
                .doesNotContain("\n");
        Files.writeString(empty.resolve("redis.password"), "secret\n");
        Run notRunning = tool("", List.of("--spring.data.redis.port=" + Ports.free(),
                "--cim.server.data-dir=" + empty), "revoke", "carol");
        assertThat(notRunning.status()).isEqualTo(AccountTool.REFUSED);
        assertThat(notRunning.output()).startsWith("error: ").contains("expected: the server running")
                .doesNotContain("\n");
    }

    @Test
    void usage_isPrintedForAnUnknownCommand() {
        Run usage = tool("", List.of(), "remove", "carol");

        assertThat(usage.status()).isEqualTo(AccountTool.USAGE);
        assertThat(usage.output()).startsWith("usage: cim-server account add|passwd|revoke NAME");
    }
}
