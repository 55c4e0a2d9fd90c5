/**
 * The cim chat server.
 *
 * <h3>Parts</h3>
 * <ul>
 *   <li>{@code net}: {@code CimServer} (Netty bootstrap, a {@code SmartLifecycle}),
 *       {@code CimServerInitializer} (the pipeline), and one handler per concern: TLS (with
 *       {@code ServerTls}, the context built once at start), login, heartbeat/idle, chat, protocol
 *       errors. Handlers that block run on a separate executor group, never on the I/O threads.</li>
 *   <li>{@code account}: login with first-login account creation; BCrypt hashes in Redis.</li>
 *   <li>{@code session}: the local registry of logged-in sessions (routing between users of one
 *       node never touches Redis) and the manager that mirrors it into presence.</li>
 *   <li>{@code presence}: who is online on which node, in Redis keys with a TTL that each live node
 *       refreshes; a dead node's users drop out within the TTL.</li>
 *   <li>{@code routing}: stamping and checking messages, the routing rules, offline inboxes, and
 *       relaying to other nodes over Redis pub/sub.</li>
 *   <li>{@code redis}: the embedded Redis process and how it is locked down (a generated password,
 *       no {@code CONFIG}/{@code DEBUG}/{@code MODULE}, {@code maxmemory} with {@code noeviction}),
 *       the key layout ({@code RedisKeys}), a full Redis reported as {@code StoreFullException},
 *       and the start-up failure analysis.</li>
 * </ul>
 *
 * <h3>Start and stop order</h3>
 * Embedded Redis (a bean every Redis connection factory depends on), then the presence heartbeat
 * (registers the node: the start-up check that Redis answers), then the server. Stopping runs the
 * other way: the server tells clients it is shutting down and closes them, the heartbeat removes
 * the node's presence, the Redis connections close, and the embedded Redis stops last.
 */
package dev.cim.server;
