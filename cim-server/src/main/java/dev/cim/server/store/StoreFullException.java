package dev.cim.server.store;

/**
 * A store refused a write because it has no room left (Redis: over its {@code maxmemory}, whose
 * {@code noeviction} policy refuses writes rather than dropping data). Nothing stored before is
 * lost; reads and deletions still work. Users are told "the server's storage is full" rather than
 * "unavailable": trying again at once will not help, the operator must make room.
 */
public final class StoreFullException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StoreFullException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * How to tell a user that a store operation failed with {@code failure}: "the server's storage
     * is full" when it (or a cause) is a {@link StoreFullException}, else "the server's storage is
     * unavailable".
     */
    public static String describe(Throwable failure) {
        return isFull(failure) ? "the server's storage is full" : "the server's storage is unavailable";
    }

    /** True when {@code failure} or a cause of it is a {@link StoreFullException}. */
    public static boolean isFull(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof StoreFullException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
