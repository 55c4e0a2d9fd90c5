package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.Recorder;
import dev.cim.server.redis.embedded.EmbeddedRedisServer;
import dev.cim.server.support.TestServer;
import dev.cim.testkit.Ports;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Metrics and health on the management port: what an operator scrapes. */
class ManagementIntegrationTest {

    @TempDir
    Path dataDir;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void prometheus_showsTheChatMetrics_andReadinessFollowsRedis() throws Exception {
        int management = Ports.free();
        int redisPort = Ports.free();
        EmbeddedRedisServer redis = new EmbeddedRedisServer(redisPort, dataDir, "everysec");
        redis.start();
        try (TestServer server = TestServer.onRedis(redis, "--spring.main.web-application-type=reactive",
                "--management.server.port=" + management, "--spring.data.redis.timeout=1s")) {
            Recorder bob = new Recorder();
            server.client("bob", bob).connect().join();
            CimClient alice = server.client("alice", new Recorder());
            alice.connect().join();
            alice.send(Recipient.user("bob"), "counted").join();
            bob.awaitText("counted");
            CimClient carol = server.client("carol", new Recorder());
            carol.connect().join();
            carol.close();
            // Gone on the server too (alice's and bob's sessions left), or "waits 1" could still be
            // written live to her closing session, and counted so, before it is stored.
            await("carol's session closed").atMost(Duration.ofSeconds(10)).until(() ->
                    get(management, "/actuator/prometheus").body().contains("cim_sessions 2.0"));
            alice.send(Recipient.user("carol"), "waits 1").join();
            alice.send(Recipient.user("carol"), "waits 2").join();
            Recorder carolAgain = new Recorder();
            server.client("carol", carolAgain).connect().join();
            carolAgain.awaitText("waits 2");

            // carol's session records what it read once it has gone live, just after writing it
            await("carol's backlog recorded").atMost(Duration.ofSeconds(10)).until(() ->
                    get(management, "/actuator/prometheus").body().contains("cim_inbox_backlog_messages_max 2.0"));
            HttpResponse<String> scrape = get(management, "/actuator/prometheus");
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.body()).contains("cim_logins_total{outcome=\"created\"} 3.0", "cim_messages_in_total",
                    "cim_messages_out_total{kind=\"live\"} 1.0",
                    "cim_routing_seconds_bucket", "cim_sessions", "cim_users", "cim_scheduled_held", "jvm_memory_used_bytes",
                    "cim_redis_seconds_count{outcome=\"ok\"}",
                    // carol's second login found two messages waiting; the others none (her first may
                    // have closed before it went live, and then records nothing)
                    "cim_inbox_backlog_messages_sum 2.0", "cim_inbox_backlog_messages_bucket{le=\"1.0\"}");
            assertThat(scrape.body()).as("Redis is timed per round trip, not per command").doesNotContain("lettuce_seconds");
            assertThat(get(management, "/actuator/health/readiness").statusCode()).isEqualTo(200);

            redis.close();
            await("readiness goes down without Redis").atMost(Duration.ofSeconds(30))
                    .until(() -> get(management, "/actuator/health/readiness").statusCode() == 503);
            assertThat(get(management, "/actuator/health/liveness").statusCode()).isEqualTo(200);

            redis.start();
            await("readiness comes back with Redis").atMost(Duration.ofSeconds(30))
                    .until(() -> get(management, "/actuator/health/readiness").statusCode() == 200);
        } finally {
            redis.close();
        }
    }
}
