package dev.cim.server.store;

import java.util.Map;

/**
 * The watermark of each client origin (see the chat core's {@code Origin}): the request number at or
 * below which every message of that origin was resolved. Written behind the traffic, read when an
 * origin logs in on a node that does not know it. Bounded and expiring: an origin unused for
 * {@code retention} is forgotten.
 */
public interface OriginStore {

    /** The watermark of {@code origin} of {@code user}, or 0 when unknown. */
    long watermark(String user, long origin);

    /** Writes watermarks: user &rarr; (origin &rarr; watermark), in one round trip where it can. */
    void save(Map<String, Map<Long, Long>> watermarks);
}
