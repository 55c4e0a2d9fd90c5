package dev.cim.server.net;

/**
 * The user event fired through a connection's pipeline when its login is accepted, for the handlers
 * that treat a connection differently before login ({@link AddressGate}, {@link ReadDeadline}).
 */
enum LoggedIn {
    INSTANCE
}
