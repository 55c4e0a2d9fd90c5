/**
 * Takes each message to everyone it is for ({@link dev.cim.server.chat.routing.Router}): the
 * recipient's sessions here, their inbox, the other nodes they are on
 * ({@link dev.cim.server.chat.routing.Relays}, {@link dev.cim.server.chat.routing.Cluster}), in order
 * per source ({@link dev.cim.server.chat.routing.RouteGate}); and what other nodes send this one
 * ({@link dev.cim.server.chat.routing.NodeReceiver}).
 */
package dev.cim.server.chat.routing;
