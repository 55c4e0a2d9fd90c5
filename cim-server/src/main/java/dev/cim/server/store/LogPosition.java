package dev.cim.server.store;

/**
 * Positions in a conversation's log ({@code <millis>-<sequence>}, as Redis stream ids are): they
 * order one log's messages, and their first half is when the message was appended.
 */
public final class LogPosition {

    private LogPosition() {
    }

    /** Negative, zero or positive as {@code a} is before, at or after {@code b}; an empty position is before all. */
    public static int compare(String a, String b) {
        if (a.isEmpty() || b.isEmpty()) {
            return Boolean.compare(!a.isEmpty(), !b.isEmpty());
        }
        int ma = a.indexOf('-');
        int mb = b.indexOf('-');
        int byMillis = Long.compare(Long.parseLong(a, 0, ma, 10), Long.parseLong(b, 0, mb, 10));
        return byMillis != 0 ? byMillis
                : Long.compareUnsigned(Long.parseUnsignedLong(a, ma + 1, a.length(), 10),
                        Long.parseUnsignedLong(b, mb + 1, b.length(), 10));
    }

    /** When the message at {@code position} was appended, epoch millis. */
    public static long millis(String position) {
        return Long.parseLong(position, 0, position.indexOf('-'), 10);
    }
}
