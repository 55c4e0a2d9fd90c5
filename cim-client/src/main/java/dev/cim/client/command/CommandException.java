package dev.cim.client.command;

/** A line that is not a valid command. The message is one line that says what was expected. */
public final class CommandException extends Exception {

    public CommandException(String message) {
        super(message, null, false, false);
    }
}
