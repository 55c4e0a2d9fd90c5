package dev.cim.server.support;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimListener;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link TestServer} for all the tests of a class: started before the first, stopped after the
 * last, the clients a test made closed after it. A server takes seconds to start, so a class's tests
 * share one, and stay apart by their user names: {@link #name} gives each test names of its own.
 *
 * <pre>
 * &#64;RegisterExtension
 * static final SharedServer shared = new SharedServer("--cim.server.idle-timeout=1500ms");
 * private final TestServer server = shared.server(); // started before the test instance is made
 * </pre>
 */
public final class SharedServer implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private final Supplier<TestServer> start;
    private final AtomicInteger tests = new AtomicInteger();
    private volatile TestServer server;
    private volatile int test;

    /** A server with its own embedded Redis and {@code args} ({@link TestServer#start}). */
    public SharedServer(String... args) {
        this(() -> TestServer.start(args));
    }

    /** The server {@code start} starts, for a class that must make files (certificates) first. */
    public SharedServer(Supplier<TestServer> start) {
        this.start = Objects.requireNonNull(start, "start (expected: what starts the server)");
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = start.get();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        test = tests.incrementAndGet();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (server != null) {
            server.closeClients();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /**
     * The running server.
     *
     * @throws IllegalStateException outside the class's tests (before the first, after the last)
     */
    public TestServer server() {
        TestServer running = server;
        if (running == null) {
            throw new IllegalStateException("no server yet (expected: a call from a test, or from a field of the "
                    + "test instance, of a class that registers this as a static @RegisterExtension)");
        }
        return running;
    }

    /** {@code base} made the current test's own: {@code base} and the test's number in its class. */
    public String name(String base) {
        return base + test;
    }

    /** A client of {@code user} (a name of the test's own, from {@link #name}), logged in. */
    public CimClient online(String user, CimListener listener) {
        CimClient client = server().client(user, listener);
        client.connect().join();
        return client;
    }
}
