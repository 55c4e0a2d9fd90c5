package dev.cim.server.redis;

/**
 * The Redis key layout of cim, in one place. Every key starts with {@code cim:}.
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>Key</th><th>Type</th><th>Holds</th><th>Lifetime</th></tr>
 *   <tr><td>{@code cim:account:<user>}</td><td>string</td><td>the BCrypt hash of the user's
 *       password</td><td>forever (created at first login)</td></tr>
 *   <tr><td>{@code cim:inbox:<user>}</td><td>list</td><td>serialized {@code Chat} protos sent to the
 *       user while offline, oldest first</td><td>until delivered at the next login</td></tr>
 *   <tr><td>{@code cim:presence:<user>}</td><td>hash</td><td>node id &rarr; the user's session count
 *       on that node: where to route the user's messages</td><td>TTL {@code presence.ttl}, refreshed
 *       by the nodes</td></tr>
 *   <tr><td>{@code cim:node:<node>}</td><td>string</td><td>the node's listen address: the node is
 *       alive while this key exists</td><td>TTL, refreshed</td></tr>
 *   <tr><td>{@code cim:node:<node>:users}</td><td>set</td><td>the users online on that node</td>
 *       <td>TTL, refreshed</td></tr>
 *   <tr><td>{@code cim:nodes}</td><td>set</td><td>every node id that has registered; readers skip
 *       (and prune) those whose {@code cim:node:<node>} key is gone</td><td>forever</td></tr>
 * </table>
 *
 * A node that dies stops refreshing: its node keys expire within the TTL, and readers ignore its
 * fields in the presence hashes of users who are also online elsewhere. User names and node ids
 * cannot contain {@code ':'}, so keys never collide.
 */
public final class RedisKeys {

    public static final String NODES = "cim:nodes";

    private RedisKeys() {
    }

    public static String account(String user) {
        return "cim:account:" + user;
    }

    public static String inbox(String user) {
        return "cim:inbox:" + user;
    }

    public static String presence(String user) {
        return "cim:presence:" + user;
    }

    public static String node(String nodeId) {
        return "cim:node:" + nodeId;
    }

    public static String nodeUsers(String nodeId) {
        return "cim:node:" + nodeId + ":users";
    }
}
