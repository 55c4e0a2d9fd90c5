package dev.cim.loadgen;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimClientBuilder;
import dev.cim.client.core.SeenIds;
import dev.cim.client.core.ServerAddress;
import dev.cim.common.Failures;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelOption;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Opens and logs in many {@link LoadClient}s, each a {@link CimClient} of the client library, all on
 * one shared event loop group, keeping each connection cheap: a few kilobytes of socket buffer (for
 * idle pools) and a small first receive buffer.
 *
 * <h3>Source addresses</h3>
 * Towards a loopback server, connection {@code i} is bound to {@code 127.0.0.(firstOctet + i /
 * perSourceAddress)}, port 0, so no one source address runs out of ephemeral ports (about 28,000 by
 * default on Linux); Linux routes all of 127/8 to the loopback interface.
 *
 * <h3>Pacing</h3>
 * At most {@value #MAX_LOGINS_IN_FLIGHT} connections are between connect and login result at a
 * time: the server's accept backlog and its login threads would otherwise refuse or time out a
 * burst of thousands, which would measure the burst, not the server's capacity. A part may also
 * spread the logins' starts over a time ({@link #open(String, int, Duration, Traffic, Duration)}).
 */
final class ClientPool implements AutoCloseable {

    /** Connections opened but not yet logged in, at most. */
    static final int MAX_LOGINS_IN_FLIGHT = 128;

    private final Dialer dialer;
    private final boolean smallBuffers;
    private final int firstOctet;
    private final ClientCounters counters = new ClientCounters();
    private final List<LoadClient> clients = new ArrayList<>();

    /**
     * @param smallBuffers true for idle connections: 4 KiB socket buffers instead of the kernel's
     *                     default (which grows to megabytes under load)
     * @param firstOctet   the last octet of the first loopback source address
     */
    ClientPool(Dialer dialer, boolean smallBuffers, int firstOctet) {
        this.dialer = dialer;
        this.smallBuffers = smallBuffers;
        this.firstOctet = firstOctet;
    }

    ClientCounters counters() {
        return counters;
    }

    /**
     * Connects and logs in {@code count} users named {@code prefix + i}, waiting at most
     * {@code timeout} in all.
     */
    Opened<LoadClient> open(String prefix, int count, Duration timeout) throws InterruptedException {
        return open(prefix, count, timeout, Traffic.NONE);
    }

    /**
     * Like {@link #open(String, int, Duration)}, each client handing what it receives to
     * {@code traffic} from before it logs in: for users who come back to messages waiting for them.
     */
    Opened<LoadClient> open(String prefix, int count, Duration timeout, Traffic traffic) throws InterruptedException {
        return open(prefix, count, timeout, traffic, Duration.ZERO);
    }

    /**
     * Like {@link #open(String, int, Duration, Traffic)}, the logins started evenly over
     * {@code spread}: login {@code i} of {@code n} not before {@code i × spread / n} after the
     * first, and still at most {@value #MAX_LOGINS_IN_FLIGHT} at a time (so a server slower than
     * that pace stretches them past {@code spread}). For users who come back together, at a rate.
     */
    Opened<LoadClient> open(String prefix, int count, Duration timeout, Traffic traffic, Duration spread)
            throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        Semaphore inFlight = new Semaphore(MAX_LOGINS_IN_FLIGHT);
        List<LoadClient> started = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long startAt = start + spread.toNanos() * i / count;
            for (long wait = startAt - System.nanoTime(); wait > 0; wait = startAt - System.nanoTime()) {
                LockSupport.parkNanos(wait); // pacing: returns early at times, hence the loop
            }
            if (!inFlight.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                break;
            }
            LoadClient client = new LoadClient(i, prefix + i, counters);
            client.traffic(traffic);
            client.attach(builder(client, i).build());
            started.add(client);
            client.connect(deadline).whenComplete((ok, failure) -> inFlight.release());
        }
        List<LoadClient> ok = new ArrayList<>(started.size());
        String firstFailure = "";
        for (LoadClient client : started) {
            try {
                ok.add(client.login().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (TimeoutException e) {
                firstFailure = firstFailure.isEmpty() ? "not logged in within " + timeout.toSeconds() + " s" : firstFailure;
                client.close();
            } catch (ExecutionException e) {
                firstFailure = firstFailure.isEmpty() ? Failures.rootMessage(e) : firstFailure;
                client.close();
            }
        }
        synchronized (clients) {
            clients.addAll(started);
        }
        return new Opened<>(List.copyOf(ok), count - ok.size(), firstFailure, Duration.ofNanos(System.nanoTime() - start));
    }

    private CimClientBuilder builder(LoadClient client, int i) {
        InetSocketAddress server = dialer.serverFor(i);
        CimClientBuilder builder = CimClient.builder()
                .addresses(List.of(new ServerAddress(server.getHostString(), server.getPort())))
                .user(client.user())
                .password(LoadClient.PASSWORD)
                .listener(client)
                .scheduler(dialer.wheel())
                .seenIds(SeenIds.none()) // the generator counts repeats itself
                .maxOutstanding(1_000_000)
                .connectTimeout(Duration.ofSeconds(10))
                .eventLoopGroup(dialer.group(), dialer.transport().socket())
                .localAddress(source(i))
                .tls(dialer.tls())
                .webSocket(dialer.webSocket());
        if (smallBuffers) {
            builder.option(ChannelOption.SO_RCVBUF, 4096)
                    .option(ChannelOption.SO_SNDBUF, 4096)
                    .option(ChannelOption.RCVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator(64, 256, 4096));
        }
        return builder;
    }

    /** The local address for connection {@code i}: spread over loopback sources, or any for a remote server. */
    private InetSocketAddress source(int i) {
        InetAddress remote = dialer.server().getAddress();
        if (remote == null || !remote.isLoopbackAddress()) {
            return new InetSocketAddress(0);
        }
        int octet = firstOctet + i / dialer.perSourceAddress();
        if (octet > 254) {
            throw new IllegalStateException("connection " + i + " needs source address 127.0.0." + octet
                    + " (expected: at most 127.0.0.254; raise --per-source-address)");
        }
        return new InetSocketAddress("127.0.0." + octet, 0);
    }

    /** Logged-in clients of this pool whose connection is still open. */
    long openCount() {
        synchronized (clients) {
            return clients.stream().filter(LoadClient::isOpen).count();
        }
    }

    /** Clients of this pool open now and logged in at or after {@code nanos} ({@link System#nanoTime}). */
    long loggedInSince(long nanos) {
        synchronized (clients) {
            return clients.stream().filter(c -> c.isOpen() && c.loggedInNanos() - nanos >= 0).count();
        }
    }

    /** Closes every connection of this pool (not counted as dropped). */
    @Override
    public void close() {
        synchronized (clients) {
            clients.forEach(LoadClient::close);
            clients.clear();
        }
    }
}
