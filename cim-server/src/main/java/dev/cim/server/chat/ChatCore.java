package dev.cim.server.chat;

import dev.cim.common.protocol.proto.NodeMessage;
import dev.cim.server.account.AccountService;
import dev.cim.server.chat.group.GroupSettings;
import dev.cim.server.chat.group.Groups;
import dev.cim.server.chat.history.History;
import dev.cim.server.chat.history.HistorySettings;
import dev.cim.server.chat.origin.Origins;
import dev.cim.server.chat.platform.KnownUsers;
import dev.cim.server.chat.platform.Periodic;
import dev.cim.server.chat.platform.Platform;
import dev.cim.server.chat.platform.Recipients;
import dev.cim.server.chat.routing.Cluster;
import dev.cim.server.chat.routing.NodeReceiver;
import dev.cim.server.chat.routing.Router;
import dev.cim.server.chat.routing.Terminals;
import dev.cim.server.chat.schedule.ScheduleSettings;
import dev.cim.server.chat.schedule.Scheduling;
import dev.cim.server.chat.session.LocalUsers;
import dev.cim.server.chat.session.Sessions;
import dev.cim.server.store.ConversationLog;
import dev.cim.server.store.GroupStore;
import dev.cim.server.store.InboxStore;
import dev.cim.server.store.NodeBus;
import dev.cim.server.store.OriginStore;
import dev.cim.server.store.PresenceStore;
import dev.cim.server.store.ScheduledStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chat core of one node, assembled: the {@link ChatService} transports call, and the parts that
 * live with it (the sessions, the router and its relays, the origins and their write-behind,
 * scheduled messages, the node bus receiver). Started after the stores answer, closed after the
 * transport has closed its connections. The parts live in layered packages, described in this
 * package's comment.
 */
public final class ChatCore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ChatCore.class);
    private static final Duration SEND_RATE_SWEEP = Duration.ofMinutes(1);

    /** The ports the core works through. */
    public record Stores(AccountService accounts, InboxStore inbox, PresenceStore presence, OriginStore origins,
            ScheduledStore scheduled, NodeBus bus, GroupStore groups, ConversationLog logs) {
    }

    /**
     * The core's settings.
     *
     * @param limits       what one session or origin may hold
     * @param scheduling   how scheduled messages are held and sent
     * @param heartbeat    how often clients ping
     * @param groups       what groups may hold
     * @param history      what is kept of conversations
     * @param originsIdle  how long an unused origin stays in memory
     * @param originsFlush how often origin watermarks are written
     */
    public record Settings(Limits limits, ScheduleSettings scheduling, GroupSettings groups, HistorySettings history,
            Duration heartbeat, Duration originsIdle, Duration originsFlush) {
    }

    /** Recipients remembered as having an account (about 100 bytes each). */
    private static final int KNOWN_USERS = 100_000;

    private final ChatService service;
    private final LocalUsers users;
    private final Platform platform;
    private final Origins origins;
    private final Scheduling scheduling;
    private final Terminals terminals;
    private final Groups groups;
    private final NodeReceiver receiver;
    private final Settings settings;
    private final Cluster cluster;
    private final Router router;
    private final SendRate sendRate;
    /**
     * Every minute, forgets the send-rate buckets of users who stopped sending. A thread of its own,
     * not a job on the delay wheel: the wheel's drain at shutdown would wait for it.
     */
    private final Periodic rateSweep;
    private volatile boolean closed;

    /**
     * @param platform what the core runs on; its lanes are closed with the core
     * @param blocking runs password hashing and other blocking work of logins
     */
    public ChatCore(Stores stores, Settings settings, Platform platform, Executor blocking) {
        this.settings = settings;
        this.platform = platform;
        this.users = new LocalUsers();
        Limits limits = settings.limits();
        this.cluster = new Cluster(users, stores.presence(), stores.bus());
        this.terminals = new Terminals(cluster);
        KnownUsers accounts = new KnownUsers(stores.accounts()::existing, KNOWN_USERS);
        this.origins = new Origins(stores.origins(), platform.nanoTime(), settings.originsIdle());
        this.groups = new Groups(stores.groups(), stores.logs(), accounts, cluster, platform, settings.groups());
        History history = new History(stores.logs(), stores.groups(), platform, blocking, settings.history());
        this.router = new Router(cluster, platform, stores.inbox(), limits.relayTimeout(), groups, history.transcript());
        this.scheduling = new Scheduling(stores.scheduled(), new Recipients(accounts, stores.groups(), stores.accounts()::zones), router, cluster,
                platform, settings.scheduling(), limits.maxTextLength());
        this.receiver = new NodeReceiver(cluster, platform.lanes(), stores.inbox(), router, this::fromOtherNode);
        stores.bus().listen(receiver);
        this.sendRate = new SendRate(limits.messagesPerSecond(), limits.messageBurst(), platform.nanoTime());
        this.rateSweep = new Periodic("cim-send-rate-sweep", sendRate::forgetIdle, SEND_RATE_SWEEP, SEND_RATE_SWEEP);
        ChatMetrics metrics = new ChatMetrics(platform.meters(), users, platform.nanoTime());
        Sessions sessions = new Sessions(users, platform.lanes()::of, stores.inbox(), limits.session(), metrics.written(),
                groups);
        AccountSettingsService accountSettings = new AccountSettingsService(stores.accounts(), terminals, blocking);
        Logins logins = new Logins(new Logins.Parts(stores.accounts(), accountSettings, origins, sessions,
                stores.presence(), cluster::addresses), blocking, metrics, new LoginTerms(settings.heartbeat(), limits.maxTextLength(),
                scheduling.maxDelay(), settings.scheduling().maxPerUser(), limits.messagesPerSecond(),
                limits.messageBurst()), scheduling::loggedIn);
        Sends sends = new Sends(router, sendRate, limits, metrics, platform.clock());
        this.service = new ChatService(logins, new ChatService.Parts(sends, scheduling, groups, history, accountSettings,
                new OnlineUsers(stores.presence(), users, blocking)), stores.accounts(), blocking, platform.clock());
    }

    /** What another node sent that the parts above routing handle. */
    private void fromOtherNode(NodeMessage message) {
        switch (message.getKindCase()) {
            case NEWS -> terminals.fromOtherNode(message.getNews());
            case GROUP_POST -> groups.heard(message.getGroupPost());
            case GROUP_CHANGED -> groups.heard(message.getGroupChanged());
            default -> log.debug("Ignoring a {} from node {}", message.getKindCase(), message.getFromNode());
        }
    }

    public ChatService service() {
        return service;
    }

    public LocalUsers users() {
        return users;
    }

    /**
     * Told by the heartbeat which nodes are alive (this one among them) and which of them are full: a
     * node that was alive and is not any more is dead, and what waits for its answer is settled now
     * (see {@link Cluster#live}).
     */
    public void liveNodes(Map<String, String> nodes, Set<String> full) {
        cluster.full(full);
        Set<String> gone = cluster.live(nodes);
        if (!gone.isEmpty()) {
            log.warn("Node(s) {} stopped answering their heartbeat: taken for dead", gone);
            router.relays().nodesGone(gone);
        }
    }

    /**
     * The presence of this node's users is being renewed, or could not be: some may have lapsed, and
     * what was sent to them meanwhile went to their inbox. Until {@link #presenceRenewed()}, a message
     * relayed here has its recipient's sessions read their inbox first, so that it does not overtake
     * one stored so.
     */
    public void presenceInDoubt() {
        cluster.presenceInDoubt(true);
    }

    /**
     * A refresh found that {@code user}'s presence here had lapsed, and renewed it: their sessions here
     * read their inbox, where messages to them went meanwhile.
     */
    public void presenceLapsed(String user) {
        router.pokeHere(user);
    }

    /** A refresh renewed the presence of every user of this node (those whose presence lapsed were told). */
    public void presenceRenewed() {
        cluster.presenceInDoubt(false);
    }

    /** How many other nodes are alive, as of the last heartbeat. */
    public int peers() {
        return cluster.peers();
    }

    /** The other live nodes' addresses, of those that took logins at the last heartbeat. */
    public List<String> otherNodesWithRoom() {
        return cluster.otherAddressesWithRoom();
    }

    /** Starts the background work: origin write-behind and the scheduled-message scan. */
    public void start() {
        origins.start(settings.originsFlush());
        scheduling.start();
        groups.start();
        rateSweep.start();
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
        rateSweep.close();
        scheduling.close();
        receiver.close();
        platform.lanes().close(10_000);
        groups.close();
        origins.close();
    }
}
