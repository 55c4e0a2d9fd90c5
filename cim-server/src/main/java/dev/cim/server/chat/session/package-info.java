/**
 * A logged-in connection's session and the delivery of its user's messages on it: the hand-off from
 * any thread, the window of what was written and not acknowledged, the inbox read in pages at login,
 * and what the session held stored in the inbox when it closes ({@link dev.cim.server.chat.session.Session}).
 * {@link dev.cim.server.chat.session.LocalUsers} is the registry of the users here, and
 * {@link dev.cim.server.chat.session.Connection} the seam every transport implements. A message on
 * its way is a {@link dev.cim.server.chat.session.Delivery}, counted toward its sender's receipt by a
 * {@link dev.cim.server.chat.session.Tracker}.
 */
package dev.cim.server.chat.session;
