package dev.cim.loadgen.peer;

import dev.cim.loadgen.ChatUser;
import dev.cim.loadgen.Opened;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.ScheduledExecutorPingSender;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

/**
 * Opens many {@link MqttLoadClient}s against one MQTT broker: the users of a peer's side in part 1's
 * comparison, what a {@code ClientPool} is for cim.
 *
 * <h3>Sessions</h3>
 * MQTT 3.1.1, cleanSession=false (the broker holds QoS 1 messages for each user), keep-alive 30 s,
 * no automatic reconnect (a lost connection is counted, as for cim, and its messages show as lost),
 * {@link #maxInflight} unacknowledged publishes per client. The client side keeps its state in memory
 * ({@link MemoryPersistence}): the broker's persistence is what is measured. Sockets have TCP_NODELAY
 * ({@link NoDelaySockets}).
 *
 * <h3>Threads</h3>
 * Paho's {@link MqttAsyncClient} runs three threads per client (receiving, sending, callbacks):
 * 1000 users are 3000 threads of the generator, and what they cost shows in the generator's CPU per
 * message beside the broker's. Keep-alive pings of every client go through one shared scheduler
 * instead of a timer thread each. For a paced run the users share {@code pacers} loops
 * ({@link PacerLoops}).
 *
 * <h3>Connecting</h3>
 * At most {@value #CONNECTS_IN_FLIGHT} clients are between connect and subscription at a time, as
 * the cim pool limits its logins: a burst of a thousand would measure the burst.
 */
public final class MqttClientPool implements PeerPool {

    /** Clients connecting or subscribing, at most. */
    static final int CONNECTS_IN_FLIGHT = 128;
    private static final int KEEP_ALIVE_SECONDS = 30;
    private static final Duration CLOSE = Duration.ofSeconds(10);

    private final String server;
    private final int maxInflight;
    private final PacerLoops pacers;
    private final ScheduledExecutorService pings;
    private final LongAdder dropped = new LongAdder();
    private final List<MqttLoadClient> clients = new ArrayList<>();

    /**
     * @param pacers      loops that pace the users' sends in a paced run (as many as the cim clients'
     *                    event loops, for the same pacing)
     * @param maxInflight each client's publishes awaiting the broker's PUBACK, at most (see
     *                    {@link #maxInflight(int, int)})
     */
    public MqttClientPool(String host, int port, int pacers, int maxInflight) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 1 to 65535)");
        }
        if (maxInflight < 1) {
            throw new IllegalArgumentException("maxInflight: " + maxInflight + " (expected: >= 1)");
        }
        this.server = "tcp://" + host + ":" + port;
        this.maxInflight = maxInflight;
        this.pacers = new PacerLoops("loadgen-mqtt-pacer", pacers);
        this.pings = Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory("loadgen-mqtt-ping", true));
    }

    /**
     * Publishes in flight per client for {@code window} messages in flight among {@code users}: four
     * times a user's share, and at least 100, so that a user who happens to send many at once is
     * not refused by its own client.
     */
    public static int maxInflight(int window, int users) {
        if (window < 1 || users < 1) {
            throw new IllegalArgumentException("window: " + window + ", users: " + users + " (expected: each >= 1)");
        }
        return Math.max(100, window / users * 4);
    }

    /**
     * Connects {@code count} users named {@code prefix + "u" + i}, each subscribed to its topic,
     * waiting at most {@code timeout} in all.
     */
    @Override
    public Opened<? extends ChatUser> open(String prefix, int count, Duration timeout) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        Semaphore inFlight = new Semaphore(CONNECTS_IN_FLIGHT);
        List<MqttLoadClient> started = new ArrayList<>(count);
        List<CompletableFuture<MqttLoadClient>> connects = new ArrayList<>(count);
        String firstFailure = "";
        for (int i = 0; i < count; i++) {
            if (!inFlight.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                break;
            }
            String name = prefix + "u" + i;
            MqttLoadClient client;
            try {
                client = new MqttLoadClient(name, new MqttAsyncClient(server, name, new MemoryPersistence(),
                        new ScheduledExecutorPingSender(pings), null), pacers.next(), dropped);
            } catch (MqttException e) {
                inFlight.release();
                firstFailure = firstFailure.isEmpty() ? String.valueOf(e) : firstFailure;
                continue;
            }
            started.add(client);
            connects.add(client.connect(options()).whenComplete((ok, failure) -> inFlight.release()));
        }
        List<MqttLoadClient> ok = new ArrayList<>(started.size());
        for (int i = 0; i < started.size(); i++) {
            try {
                ok.add(connects.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (Exception e) {
                firstFailure = firstFailure.isEmpty() ? String.valueOf(e.getCause() != null ? e.getCause() : e)
                        : firstFailure;
                started.get(i).close();
            }
        }
        synchronized (clients) {
            clients.addAll(started);
        }
        return new Opened<>(List.copyOf(ok), count - ok.size(), firstFailure, Duration.ofNanos(System.nanoTime() - start));
    }

    private MqttConnectOptions options() {
        MqttConnectOptions options = new MqttConnectOptions();
        options.setMqttVersion(MqttConnectOptions.MQTT_VERSION_3_1_1);
        options.setCleanSession(false);
        options.setKeepAliveInterval(KEEP_ALIVE_SECONDS);
        options.setAutomaticReconnect(false);
        options.setMaxInflight(maxInflight);
        options.setConnectionTimeout(10);
        options.setSocketFactory(NoDelaySockets.INSTANCE);
        return options;
    }

    @Override
    public long dropped() {
        return dropped.sum();
    }

    @Override
    public String describe() {
        return "MQTT 3.1.1 to " + server + " (Eclipse Paho MqttAsyncClient 1.2.5, TCP_NODELAY), QoS 1, cleanSession=false, "
                + "keep-alive " + KEEP_ALIVE_SECONDS + " s, at most " + maxInflight + " publishes in flight per client, "
                + pacers.count() + " pacer loops";
    }

    @Override
    public void close() {
        synchronized (clients) {
            long deadline = System.nanoTime() + CLOSE.toNanos();
            List<IMqttToken> leaving = new ArrayList<>();
            for (MqttLoadClient client : clients) {
                IMqttToken token = client.disconnect();
                if (token != null) {
                    leaving.add(token);
                }
            }
            for (IMqttToken token : leaving) {
                try {
                    token.waitForCompletion(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                } catch (MqttException e) {
                    // closed forcibly below
                }
            }
            clients.forEach(MqttLoadClient::close);
            clients.clear();
        }
        pings.shutdownNow();
        pacers.close();
    }
}
