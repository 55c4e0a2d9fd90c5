package dev.cim.server.chat.history;

import java.time.Duration;

/**
 * What the server keeps of conversations.
 *
 * @param retention   how long a message is kept in its conversation's history; zero keeps none
 * @param maxMessages the most messages one conversation keeps
 */
public record HistorySettings(Duration retention, long maxMessages) {

    public HistorySettings {
        if (retention.isNegative()) {
            throw new IllegalArgumentException("history retention: " + retention + " (expected: >= 0; 0 keeps none)");
        }
        if (maxMessages < 1) {
            throw new IllegalArgumentException("history max messages: " + maxMessages + " (expected: >= 1)");
        }
    }

    /** True when history is kept. */
    public boolean kept() {
        return !retention.isZero();
    }
}
