package dev.cim.server.chat.session;

import dev.cim.server.store.InboxStore;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Opens the sessions of one node, and holds what they share: the registry of users here, each
 * user's lane, the inbox, the limits and the counter of what they write.
 */
public final class Sessions {

    private final LocalUsers users;
    private final Function<String, Executor> lanes;
    private final InboxStore inbox;
    private final SessionLimits limits;
    private final WriteCounter counter;
    private final GroupLogs groupLogs;
    private final AtomicLong lastId = new AtomicLong();

    /**
     * @param lanes each user's lane ({@code UserLanes::of}), where their store work runs in order
     */
    public Sessions(LocalUsers users, Function<String, Executor> lanes, InboxStore inbox, SessionLimits limits,
            WriteCounter counter) {
        this(users, lanes, inbox, limits, counter, GroupLogs.NONE);
    }

    /**
     * @param lanes     each user's lane ({@code UserLanes::of}), where their store work runs in order
     * @param groupLogs the logs of the users' groups, read after their inbox
     */
    public Sessions(LocalUsers users, Function<String, Executor> lanes, InboxStore inbox, SessionLimits limits,
            WriteCounter counter, GroupLogs groupLogs) {
        this.users = users;
        this.lanes = lanes;
        this.inbox = inbox;
        this.limits = limits;
        this.counter = counter;
        this.groupLogs = groupLogs;
    }

    /**
     * A new session of {@code user} on {@code connection}, speaking for client origin {@code origin};
     * it joins the registry when its login is done ({@link LocalUsers#add}), then {@link Session#start}s.
     *
     * @param onClosed told on the session's owner thread once everything it held is stored
     */
    public Session open(String user, long origin, Connection connection, Consumer<Session> onClosed) {
        return open(user, origin, connection, List.of(), onClosed);
    }

    /**
     * {@link #open(String, long, Connection, Consumer)} for a user in {@code groups}, whose logs the
     * session reads after the inbox.
     */
    public Session open(String user, long origin, Connection connection, List<String> groups,
            Consumer<Session> onClosed) {
        return new Session(lastId.incrementAndGet(), user, origin, connection, this, List.copyOf(groups), onClosed);
    }

    public LocalUsers users() {
        return users;
    }

    /** The lane of {@code user}. */
    public Executor laneOf(String user) {
        return lanes.apply(user);
    }

    InboxStore inbox() {
        return inbox;
    }

    SessionLimits limits() {
        return limits;
    }

    WriteCounter counter() {
        return counter;
    }

    GroupLogs groupLogs() {
        return groupLogs;
    }

    /** {@code user}'s groups, delivered to their sessions here from now on; blocks (see {@link GroupLogs#loggingIn}). */
    public List<String> groupsLoggingIn(String user) {
        return groupLogs.loggingIn(user);
    }
}
