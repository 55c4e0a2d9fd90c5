package dev.cim.loadgen;

import java.util.Locale;

/**
 * What something added to a store's memory: a reading before and one after (bytes, each -1 where
 * it could not be read), and that per item added. For Redis' {@code used_memory} around a
 * phase's messages; the readings are the caller's (at once, or once they held still:
 * {@link RedisProbe#settledUsedMemory}).
 *
 * @param beforeBytes the reading before, or -1
 * @param afterBytes  the reading after, or -1
 */
record MemoryGrowth(long beforeBytes, long afterBytes) {

    /** "12.0 MiB → 14.1 MiB: **221 bytes per msg**", or "unreadable" when a reading is missing. */
    String per(long count, String item) {
        if (beforeBytes < 0 || afterBytes < 0) {
            return "unreadable";
        }
        if (count < 1) {
            return mib(beforeBytes) + " → " + mib(afterBytes) + ": none added";
        }
        return String.format(Locale.ROOT, "%s → %s: **%,.0f bytes per %s**", mib(beforeBytes), mib(afterBytes),
                (afterBytes - beforeBytes) / (double) count, item);
    }

    /** "12.3 MiB", or "?" for a reading of -1. */
    static String mib(long bytes) {
        return bytes < 0 ? "?" : String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
