package dev.cim.client.core;

/**
 * A message of a conversation's history, and where it is in it.
 *
 * @param message  the message
 * @param position its place in the conversation's history, opaque: give it to
 *                 {@link CimHistory#before} or {@link CimHistory#after} to page from there
 */
public record HistoryEntry(ChatMessage message, String position) {
}
