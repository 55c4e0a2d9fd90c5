package dev.cim.client.core;

import java.time.Instant;
import java.util.List;

/**
 * A page of search hits, newest first.
 *
 * @param hits           each one's conversation ({@code @user}, {@code #group}) and message
 * @param resume         to ask for the next page; empty when the search reached the end of what
 *                       the server keeps
 * @param searchedBackTo every message sent after this was searched
 */
public record SearchResult(List<Hit> hits, String resume, Instant searchedBackTo) {

    /** A message found, and the conversation it is in. */
    public record Hit(String conversation, HistoryEntry entry) {
    }

    public SearchResult {
        hits = List.copyOf(hits);
    }
}
