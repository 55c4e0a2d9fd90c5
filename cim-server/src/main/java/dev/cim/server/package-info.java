/**
 * The cim chat server.
 *
 * <h3>Parts</h3>
 * <ul>
 *   <li>{@code net}: the transport. {@code CimServer} (Netty bootstrap, a {@code SmartLifecycle}),
 *       {@code CimServerInitializer} (the pipeline), and one handler per concern: TLS (with
 *       {@code ServerTls}, the context built once at start), the address and login gates, the read
 *       deadline, the session, protocol errors.</li>
 *   <li>{@code chat}: the chat core, free of Netty and Redis: logins, sessions and their delivery,
 *       routing between sessions, inboxes and nodes, client origins, scheduled messages. Its
 *       packages are layered; see {@code ChatCore}.</li>
 *   <li>{@code account}: login with first-login account creation, session tokens, throttling.</li>
 *   <li>{@code store}: the ports the core stores through (inboxes, presence, origins, scheduled
 *       messages, the node bus); {@code redis} implements them, with the key layout
 *       ({@code RedisKeys}), the scripts, and the embedded Redis process and its lock-down.</li>
 *   <li>{@code node}: this node's presence heartbeat.</li>
 * </ul>
 *
 * <h3>Start and stop order</h3>
 * Embedded Redis (a bean every Redis connection factory depends on), then the presence heartbeat
 * (registers the node: the start-up check that Redis answers), then the server. Stopping runs the
 * other way: the server tells clients it is shutting down and closes them, the heartbeat removes
 * the node's presence, the Redis connections close, and the embedded Redis stops last.
 */
package dev.cim.server;
