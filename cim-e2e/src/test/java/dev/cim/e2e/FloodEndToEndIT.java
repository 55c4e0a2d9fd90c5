package dev.cim.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimException;
import dev.cim.client.core.CimListener;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.SendReceipt;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.MessageIds;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One user floods another whose socket never reads, against the server jar (-Xmx256m) on a real
 * Redis: the server's memory stays bounded (the recipient's window, then its inbox in Redis, then
 * refusals when the inbox is full), the sender is told what became of every message, the server
 * keeps serving everyone else, and the recipient gets every stored message once when it logs in.
 */
class FloodEndToEndIT {

    private static final int MESSAGES = 40_000;
    private static final int TEXT_LENGTH = 3_000; // 120 MB of text in all: far more than the server's heap
    private static final long RSS_BOUND = 600L << 20;
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String PASSWORD = "flood-test-password";

    /** The flood is about memory, not rate: the per-user rate limit is lifted for it. */
    @RegisterExtension
    static final CimSystem cim = new CimSystem().withServerArgs(
            "--cim.server.limits.messages-per-second=1000000", "--cim.server.limits.message-burst=1000000");

    private CimClient client(String user, CimListener listener) {
        return CimClient.builder().addresses("127.0.0.1:" + cim.port()).user(user).password(PASSWORD)
                .listener(listener).maxOutstanding(MESSAGES).build();
    }

    @Test
    void floodToARecipientThatNeverReads_keepsTheServersMemoryBounded_andLosesNothing() throws Exception {
        long serverPid = cim.server().handle().pid();
        MemorySampler memory = new MemorySampler(serverPid, cim.managementPort());
        try (Socket bob = new Socket()) {
            bob.setReceiveBufferSize(4096); // and it never reads: the server's writes to it pile up
            bob.connect(new java.net.InetSocketAddress("127.0.0.1", cim.port()));
            writeFrame(bob, Envelopes.login("bob", PASSWORD, "", MessageIds.newOrigin()).toByteArray());
            try (CimClient alice = client("alice", new CimListener() { })) {
                alice.connect().join();
                await("bob online").atMost(WAIT).until(() -> alice.onlineUsers().join().contains("bob"));
                memory.start();

                String text = "x".repeat(TEXT_LENGTH - 12);
                List<CompletableFuture<SendReceipt>> sent = new ArrayList<>(MESSAGES);
                for (int i = 0; i < MESSAGES; i++) {
                    sent.add(alice.send(Recipient.user("bob"), String.format("%010d:", i) + text));
                }
                Set<Integer> accepted = ConcurrentHashMap.newKeySet();
                int full = 0;
                for (int i = 0; i < MESSAGES; i++) {
                    try {
                        SendReceipt receipt = sent.get(i).get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
                        assertThat(receipt.outcome()).isIn(SendReceipt.Outcome.DELIVERED, SendReceipt.Outcome.STORED);
                        accepted.add(i);
                    } catch (java.util.concurrent.ExecutionException e) {
                        CimException refusal = (CimException) e.getCause();
                        assertThat(refusal.reason()).as("message %d: %s", i, refusal.getMessage())
                                .isEqualTo(CimException.Reason.INBOX_FULL);
                        full++;
                    }
                }
                memory.stop();
                System.out.printf("flood: %,d messages of %,d chars; %,d accepted, %,d refused as the inbox was full;"
                        + " server peak RSS %,d MB (bound %,d), peak heap used %,d MB%n", MESSAGES, TEXT_LENGTH,
                        accepted.size(), full, memory.maxRss >> 20, RSS_BOUND >> 20, memory.maxHeap.get() >> 20);

                assertThat(accepted.size() + full).isEqualTo(MESSAGES);
                assertThat(full).as("the inbox cap was reached").isPositive();
                assertThat(memory.maxRss).as("server RSS").isLessThan(RSS_BOUND);
                assertThat(memory.samples).as("memory samples").isGreaterThan(3);
                assertThat(cim.server().isAlive()).isTrue();
                assertClosedByTheServer(bob);

                // Everyone else is served.
                List<String> daveGot = new java.util.concurrent.CopyOnWriteArrayList<>();
                try (CimClient carol = client("carol", new CimListener() { });
                        CimClient dave = client("dave", new CimListener() {
                            @Override
                            public void onMessage(ChatMessage message) {
                                daveGot.add(message.text());
                            }
                        })) {
                    carol.connect().join();
                    dave.connect().join();
                    carol.send(Recipient.user("dave"), "still serving").join();
                    await().atMost(WAIT).until(() -> daveGot.contains("still serving"));
                }

                // And bob, back with a reading client, gets every accepted message once, in order.
                List<Integer> bobGot = new java.util.concurrent.CopyOnWriteArrayList<>();
                try (CimClient bobAgain = client("bob", new CimListener() {
                    @Override
                    public void onMessage(ChatMessage message) {
                        bobGot.add(Integer.parseInt(message.text().substring(0, 10)));
                    }
                })) {
                    bobAgain.connect().join();
                    await("bob's inbox").atMost(WAIT).until(() -> bobGot.size() >= accepted.size());
                }
                assertThat(bobGot).doesNotHaveDuplicates().isSorted();
                assertThat(Set.copyOf(bobGot)).isEqualTo(accepted);
            }
        }
    }

    private static void writeFrame(Socket socket, byte[] payload) throws IOException {
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.writeInt(payload.length);
        out.write(payload);
        out.flush();
    }

    /** The server closed the never-reading connection: draining it now reaches its end. */
    private static void assertClosedByTheServer(Socket socket) throws IOException {
        socket.setSoTimeout((int) WAIT.toMillis());
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[1 << 16];
        try {
            while (in.read(buffer) >= 0) {
                // what the server had written before it gave up on this reader
            }
        } catch (java.net.SocketException reset) {
            // closed with unread data: a reset, which is a close too
        }
    }

    /** Samples the server's resident memory (/proc) and heap (its metrics endpoint) until stopped. */
    private static final class MemorySampler {
        private static final Pattern VALUE = Pattern.compile("\"value\"\\s*:\\s*([0-9.Ee+]+)");

        private final Path status;
        private final URI heap;
        private final HttpClient http = HttpClient.newHttpClient();
        private final AtomicLong maxHeap = new AtomicLong();
        private volatile boolean running = true;
        private volatile long maxRss;
        private volatile int samples;
        private Thread thread;

        MemorySampler(long pid, int managementPort) {
            this.status = Path.of("/proc", Long.toString(pid), "status");
            this.heap = URI.create("http://127.0.0.1:" + managementPort + "/actuator/metrics/jvm.memory.used?tag=area:heap");
        }

        void start() {
            thread = new Thread(() -> {
                while (running) {
                    sample();
                    try {
                        Thread.sleep(200); // a sampling period, not a wait for a condition
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "memory-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join();
            sample();
        }

        private void sample() {
            try {
                for (String line : Files.readAllLines(status)) {
                    if (line.startsWith("VmHWM:")) { // the peak resident set, so nothing between samples is missed
                        maxRss = Math.max(maxRss, Long.parseLong(line.replaceAll("\\D", "")) * 1024);
                    }
                }
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(heap).build(),
                        HttpResponse.BodyHandlers.ofString());
                Matcher value = VALUE.matcher(response.body());
                if (value.find()) {
                    maxHeap.accumulateAndGet((long) Double.parseDouble(value.group(1)), Math::max);
                }
                samples++;
            } catch (IOException e) {
                // the next sample will tell
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
