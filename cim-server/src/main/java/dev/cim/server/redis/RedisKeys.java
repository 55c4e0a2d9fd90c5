package dev.cim.server.redis;

/**
 * The Redis key layout of cim, in one place. Every key starts with {@code cim:} and carries a hash tag
 * (the part in braces), so that the keys one script touches always sit in one slot of a Redis
 * Cluster: a user's keys share {@code {u:<user>}}, a scheduled-message bucket's keys share
 * {@code {sched:<bucket>}}. User names and node ids cannot contain braces, colons or newlines, so
 * keys never collide.
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>Key</th><th>Type</th><th>Holds</th><th>Lifetime</th></tr>
 *   <tr><td>{@code cim:{u:<user>}:account}</td><td>hash</td><td>{@code hash}: the BCrypt hash of the
 *       password</td><td>forever</td></tr>
 *   <tr><td>{@code cim:{u:<user>}:tokens}</td><td>hash</td><td>SHA-256 of a session token &rarr;
 *       its expiry, epoch ms</td><td>until the last expires, or they are revoked</td></tr>
 *   <tr><td>{@code cim:{n:<skeleton>}:owner}</td><td>string</td><td>the user name that claimed a
 *       look-alike skeleton (see {@code UserNames.skeleton})</td><td>forever</td></tr>
 *   <tr><td>{@code cim:{t:<subject>}}</td><td>hash</td><td>{@code n}: attempts, {@code last}: epoch ms
 *       of the last; subjects {@code login:u:<user>}, {@code login:a:<address>},
 *       {@code register:a:<address>}</td><td>TTL, renewed by each attempt</td></tr>
 *   <tr><td>{@code cim:{u:<user>}:presence}</td><td>hash</td><td>node id &rarr;
 *       {@code <sessions>:<expires at, epoch ms>}: where the user is online; a field whose time has
 *       passed is a dead node's</td><td>TTL {@code presence.ttl}, renewed by each node</td></tr>
 *   <tr><td>{@code cim:{u:<user>}:inbox}</td><td>stream</td><td>field {@code c}: a serialized
 *       {@code Chat}; messages that reached none of the user's sessions, or that a session did not
 *       acknowledge, oldest first</td><td>until acknowledged, or the inbox TTL</td></tr>
 *   <tr><td>{@code cim:{u:<user>}:inbox:bytes}</td><td>string</td><td>the bytes of the inbox's
 *       messages, for its size limit</td><td>with the inbox</td></tr>
 *   <tr><td>{@code cim:{u:<user>}:origins}</td><td>hash</td><td>origin (16 hex digits) &rarr; the
 *       request number below which all its messages were resolved</td><td>TTL 30 days, renewed on
 *       write</td></tr>
 *   <tr><td>{@code cim:{sched:<b>}:due}</td><td>sorted set</td><td>{@code <user>\n<id>} by due time,
 *       epoch ms: the scheduled messages of bucket {@code b}</td><td>until sent or cancelled</td></tr>
 *   <tr><td>{@code cim:{sched:<b>}:claimed}</td><td>sorted set</td><td>{@code <user>\n<id>} by lease
 *       end: messages being sent (they stay in the due set)</td><td>until sent, or the lease ends</td></tr>
 *   <tr><td>{@code cim:{sched:<b>}:lapsed}</td><td>set</td><td>{@code <user>\n<id>}: messages whose
 *       claim ran out before they were finished (their sender may have sent them and died); read by
 *       the next claim</td><td>until claimed again, finished or cancelled</td></tr>
 *   <tr><td>{@code cim:{sched:<b>}:bodies}</td><td>hash</td><td>{@code <user>\n<id>} &rarr; the
 *       serialized {@code Scheduled} without its id and due time (see {@code ScheduledLayout})</td>
 *       <td>until sent or cancelled</td></tr>
 *   <tr><td>{@code cim:{sched:<b>}:user:<user>}</td><td>hash</td><td>{@code n}: the last number given,
 *       {@code c}: how many the user has</td><td>forever</td></tr>
 *   <tr><td>{@code cim:{u:<user>}:waiting}</td><td>set</td><td>{@code <sender>\n<id>} (as a
 *       scheduled message's name): the "when online" messages waiting for the user to log in</td>
 *       <td>until sent, dropped or cancelled</td></tr>
 *   <tr><td>{@code cim:{sched:<b>}:record:<user>}</td><td>list</td><td>serialized {@code SentRecord}s,
 *       newest first: the user's scheduled messages sent, failed or dropped, at most
 *       {@code delays.record-size}</td><td>TTL {@code delays.record-keep}, renewed by each</td></tr>
 *   <tr><td>{@code cim:{g:<group>}:meta}</td><td>hash</td><td>{@code owner}, {@code open} (0/1),
 *       {@code created} (epoch ms), {@code version} (membership changes), {@code seq} (joins),
 *       {@code last} (the log's newest position)</td><td>while the group has members</td></tr>
 *   <tr><td>{@code cim:{g:<group>}:members}</td><td>hash</td><td>member &rarr; the number of their
 *       join (the owner's successor is the lowest)</td><td>with the group</td></tr>
 *   <tr><td>{@code cim:{g:<group>}:cursors}</td><td>hash</td><td>member &rarr; the log position up to
 *       which they acknowledged</td><td>with the group</td></tr>
 *   <tr><td>{@code cim:{g:<group>}:log}</td><td>stream</td><td>field {@code c}: a serialized
 *       {@code Chat}; every message posted to the group</td><td>the history's retention, with the
 *       group</td></tr>
 *   <tr><td>{@code cim:{gn:<skeleton>}:owner}</td><td>string</td><td>the group name that claimed a
 *       look-alike skeleton</td><td>with the group</td></tr>
 *   <tr><td>{@code cim:{u:<user>}:groups}</td><td>set</td><td>the groups the user is in (and perhaps
 *       one just left: the group's members are the truth)</td><td>forever</td></tr>
 *   <tr><td>{@code cim:{u:<user>}:joining}</td><td>sorted set</td><td>groups the user is being added
 *       to, by when the place was taken, epoch ms: counted against the user's limit of groups until
 *       the join is done</td><td>a minute after the last place taken</td></tr>
 *   <tr><td>{@code cim:{c:<a>|<b>}:log}</td><td>stream</td><td>field {@code c}: a serialized
 *       {@code Chat}; the private conversation of users a and b (sorted)</td><td>the history's
 *       retention after its last message</td></tr>
 *   <tr><td>{@code cim:{u:<user>}:convs}</td><td>sorted set</td><td>the user's private conversations
 *       by their last message, epoch ms</td><td>the history's retention</td></tr>
 *   <tr><td>{@code cim:node:<node>}</td><td>string</td><td>the node's address: alive while it
 *       exists</td><td>TTL, renewed</td></tr>
 *   <tr><td>{@code cim:node:<node>:users}</td><td>set</td><td>the users online on that node</td>
 *       <td>TTL, renewed</td></tr>
 *   <tr><td>{@code cim:nodes}</td><td>set</td><td>every node id that registered; readers skip and
 *       prune those whose {@code cim:node:<node>} is gone</td><td>forever</td></tr>
 * </table>
 *
 * Pub/sub: {@code cim:bus:<node>} for one node, {@code cim:bus:all} for every node.
 */
public final class RedisKeys {

    public static final String NODES = "cim:nodes";
    /** The nodes that take no more logins, as their last heartbeat said (a set; only live ones count). */
    public static final String FULL_NODES = "cim:nodes:full";
    public static final String BUS_ALL = "cim:bus:all";

    private RedisKeys() {
    }

    private static String user(String user) {
        return "cim:{u:" + user + "}:";
    }

    public static String account(String user) {
        return user(user) + "account";
    }

    public static String tokens(String user) {
        return user(user) + "tokens";
    }

    public static String nameOwner(String skeleton) {
        return "cim:{n:" + skeleton + "}:owner";
    }

    public static String attempts(String subject) {
        return "cim:{t:" + subject + "}";
    }

    public static String presence(String user) {
        return user(user) + "presence";
    }

    public static String inbox(String user) {
        return user(user) + "inbox";
    }

    public static String inboxBytes(String user) {
        return user(user) + "inbox:bytes";
    }

    public static String origins(String user) {
        return user(user) + "origins";
    }

    private static String bucket(int bucket) {
        return "cim:{sched:" + bucket + "}:";
    }

    public static String scheduledDue(int bucket) {
        return bucket(bucket) + "due";
    }

    public static String scheduledClaimed(int bucket) {
        return bucket(bucket) + "claimed";
    }

    public static String scheduledLapsed(int bucket) {
        return bucket(bucket) + "lapsed";
    }

    public static String scheduledBodies(int bucket) {
        return bucket(bucket) + "bodies";
    }

    public static String scheduledUser(int bucket, String user) {
        return bucket(bucket) + "user:" + user;
    }

    public static String waiting(String recipient) {
        return user(recipient) + "waiting";
    }

    public static String scheduledRecord(int bucket, String user) {
        return bucket(bucket) + "record:" + user;
    }

    private static String group(String group) {
        return "cim:{g:" + group + "}:";
    }

    public static String groupMeta(String group) {
        return group(group) + "meta";
    }

    public static String groupMembers(String group) {
        return group(group) + "members";
    }

    public static String groupCursors(String group) {
        return group(group) + "cursors";
    }

    public static String groupNameOwner(String skeleton) {
        return "cim:{gn:" + skeleton + "}:owner";
    }

    public static String groupsOf(String user) {
        return user(user) + "groups";
    }

    public static String groupsJoining(String user) {
        return user(user) + "joining";
    }

    /** The log of a conversation: a group's ({@code #name}) or a private one ({@code a|b}). */
    public static String log(dev.cim.server.store.Conversation conversation) {
        return conversation.isGroup() ? group(conversation.groupName()) + "log"
                : "cim:{c:" + conversation.id() + "}:log";
    }

    public static String conversationsOf(String user) {
        return user(user) + "convs";
    }

    public static String node(String node) {
        return "cim:node:" + node;
    }

    public static String nodeUsers(String node) {
        return "cim:node:" + node + ":users";
    }

    public static String bus(String node) {
        return "cim:bus:" + node;
    }
}
