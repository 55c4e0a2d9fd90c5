package dev.cim.client.core;

import java.util.List;

/**
 * A page of a conversation's history, oldest first.
 *
 * @param conversation {@code @user} or {@code #group}
 * @param entries      the messages
 * @param more         true when there is more in the direction asked for
 */
public record HistoryPage(String conversation, List<HistoryEntry> entries, boolean more) {

    public HistoryPage {
        entries = List.copyOf(entries);
    }

    /** The position of the oldest message here, to page back from; empty when the page is empty. */
    public String oldest() {
        return entries.isEmpty() ? "" : entries.get(0).position();
    }

    /** The position of the newest message here, to read on from; empty when the page is empty. */
    public String newest() {
        return entries.isEmpty() ? "" : entries.get(entries.size() - 1).position();
    }
}
