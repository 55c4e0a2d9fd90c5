package dev.cim.server.chat;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.Job;
import dev.cim.server.account.AccountService;
import dev.cim.server.store.InboxStore;
import dev.cim.server.store.NodeBus;
import dev.cim.server.store.OriginStore;
import dev.cim.server.store.PresenceStore;
import dev.cim.server.store.ScheduledStore;
import dev.cim.server.store.StoreFullException;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chat core of one node, assembled: the {@link ChatService} transports call, and the parts that
 * live with it (the user lanes, the origins and their write-behind, scheduled messages, the node
 * bus receiver). Started after the stores answer, closed after the transport has closed its
 * connections.
 */
public final class ChatCore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ChatCore.class);
    private static final Duration SEND_RATE_SWEEP = Duration.ofMinutes(1);

    /** The ports the core works through. */
    public record Stores(AccountService accounts, InboxStore inbox, PresenceStore presence, OriginStore origins,
            ScheduledStore scheduled, NodeBus bus) {
    }

    /**
     * The core's settings.
     *
     * @param limits        what one session or origin may hold
     * @param scheduling    how scheduled messages are held and sent
     * @param lanes         threads for the users' store work
     * @param heartbeat     how often clients ping
     * @param originsIdle   how long an unused origin stays in memory
     * @param originsFlush  how often origin watermarks are written
     */
    public record Settings(Limits limits, SchedulingSettings scheduling, int lanes, Duration heartbeat,
            Duration originsIdle, Duration originsFlush) {
    }

    /** See {@link Scheduling}. */
    public record SchedulingSettings(Duration maxDelay, int maxPerUser, Duration window, Duration scanInterval,
            Duration releaseGrace, Duration lease) {
    }

    private final ChatService service;
    private final LocalUsers users;
    private final UserLanes lanes;
    private final Origins origins;
    private final Scheduling scheduling;
    private final NodeReceiver receiver;
    private final Relays relays;
    private final Settings settings;
    private final InboxStore inbox;
    private final PresenceStore presence;
    private final NodeBus bus;
    private final Router router;
    private final AtomicInteger peers = new AtomicInteger();
    private final SendRate sendRate;
    private final DelayScheduler wheel;
    private volatile boolean closed;

    /**
     * @param blocking runs password hashing and other blocking work of logins
     */
    public ChatCore(Stores stores, Settings settings, DelayScheduler wheel, Clock clock, Executor blocking,
            MeterRegistry meters) {
        this.settings = settings;
        this.users = new LocalUsers();
        this.lanes = new UserLanes(settings.lanes());
        this.origins = new Origins(stores.origins(), System::nanoTime, settings.originsIdle());
        String nodeId = stores.presence().nodeId();
        this.relays = new Relays(stores.bus(), nodeId, wheel, settings.limits().relayTimeout(), this::storeUnanswered);
        Router router = new Router(users, lanes, stores.inbox(), stores.presence(), relays, peers::get);
        SchedulingSettings s = settings.scheduling();
        this.scheduling = new Scheduling(stores.scheduled(), lanes, router, users, stores.presence(), stores.bus(), wheel,
                clock, new Scheduling.Settings(s.maxDelay(), s.maxPerUser(), s.window(), s.scanInterval(),
                        s.releaseGrace(), s.lease()),
                settings.limits().maxTextLength(), peers::get, stores.accounts()::existing, meters);
        this.receiver = new NodeReceiver(nodeId, users, lanes, stores.inbox(), stores.bus(), relays, scheduling::news);
        stores.bus().listen(receiver);
        this.sendRate = new SendRate(settings.limits().messagesPerSecond(), settings.limits().messageBurst(),
                System::nanoTime);
        this.wheel = wheel;
        this.service = new ChatService(stores.accounts(), users, lanes, stores.inbox(), stores.presence(), origins,
                router, scheduling, settings.limits(), clock, blocking, settings.heartbeat(),
                new ChatMetrics(meters, users), sendRate);
        this.inbox = stores.inbox();
        this.presence = stores.presence();
        this.bus = stores.bus();
        this.router = router;
    }

    /** A relay nobody answered in time: store the message for its recipient, and poke their sessions. */
    private void storeUnanswered(Chat chat, Tracker tracker) {
        String user = chat.getRecipient();
        lanes.of(user).execute(() -> {
            try {
                inbox.store(user, List.of(chat));
                tracker.stored();
            } catch (RuntimeException e) {
                log.error("Could not store unanswered relay {} for {}: {}", chat.getId(), user, e.toString());
                tracker.failed(new Tracker.Failure(ErrorReply.Code.INTERNAL,
                        "message not delivered: " + StoreFullException.describe(e) + "; send it again"));
                return;
            }
            router.pokeHere(user);
            try {
                Set<String> nodes = presence.nodesOf(user);
                for (String node : nodes) {
                    if (!node.equals(presence.nodeId())) {
                        bus.send(node, NodeMessage.newBuilder().setFromNode(presence.nodeId())
                                .setPoke(NodeMessage.InboxPoke.newBuilder().setUser(user)).build());
                    }
                }
            } catch (RuntimeException e) {
                log.warn("Could not poke the nodes of {}: {}", user, e.toString());
            }
        });
    }

    public ChatService service() {
        return service;
    }

    public LocalUsers users() {
        return users;
    }

    /** Told by the presence heartbeat: how many other nodes are alive. */
    public void peers(int count) {
        peers.set(count);
    }

    /** How many other nodes are alive, as of the last heartbeat. */
    public int peers() {
        return peers.get();
    }

    /** Starts the background work: origin write-behind and the scheduled-message scan. */
    public void start() {
        origins.start(settings.originsFlush());
        scheduling.start();
        forgetIdleSendRates();
    }

    /** Every minute, forgets the send-rate buckets of users who stopped sending. */
    private void forgetIdleSendRates() {
        if (closed) {
            return;
        }
        sendRate.forgetIdle();
        try {
            wheel.schedule(Job.of("forget idle send rates", this::forgetIdleSendRates), SEND_RATE_SWEEP);
        } catch (RejectedExecutionException stopping) {
            // the wheel is stopping with the application: nothing left to forget
        }
    }

    /**
     * Stops the background work and lets the lanes finish what they hold (up to 10 s): the store
     * work of sessions that just closed, batches of scheduled messages. Call it while the stores
     * still answer, after the transport has closed its connections. Once is enough; later calls do
     * nothing.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        scheduling.close();
        receiver.close();
        lanes.close(10_000);
        origins.close();
    }
}
