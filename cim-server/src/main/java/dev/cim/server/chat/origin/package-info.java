/**
 * Client origins: what this node knows of each client process of a user
 * ({@link dev.cim.server.chat.origin.Origin}): the highest request number it routed, its messages not
 * yet resolved, the answers to the last few (so a request sent again is never routed twice), and the
 * watermark written to the store behind the traffic, which other nodes trust when the client fails
 * over ({@link dev.cim.server.chat.origin.Origins}).
 */
package dev.cim.server.chat.origin;
