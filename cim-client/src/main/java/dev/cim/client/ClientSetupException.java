package dev.cim.client;

/** The client cannot start as configured; the message is one line saying what to change. */
final class ClientSetupException extends RuntimeException {

    ClientSetupException(String message) {
        super(message, null, false, false);
    }
}
