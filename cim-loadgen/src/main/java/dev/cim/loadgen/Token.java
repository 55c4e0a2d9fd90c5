package dev.cim.loadgen;

/**
 * What the generator writes in a chat text so the receiver can account for it: a tag naming the
 * measurement, the message's sequence number and up to two {@link System#nanoTime()} stamps, e.g.
 * {@code "p50 1234 987654321000 0"}. Sender and receivers are in this one JVM, so nanoTime is one
 * clock for both.
 *
 * @param tag   names the measurement; a receipt of another tag is not this measurement's
 * @param seq   the {@link DeliveryLedger} number
 * @param nanos the stamp the latency is measured from (send time, or due time)
 * @param extra a second stamp, or 0
 */
record Token(String tag, long seq, long nanos, long extra) {

    String text() {
        return tag + ' ' + seq + ' ' + nanos + ' ' + extra;
    }

    /** Reads a text written by {@link #text()}, or null for any other text. */
    static Token parse(String text) {
        String[] fields = text.split(" ", -1);
        if (fields.length != 4) {
            return null;
        }
        try {
            return new Token(fields[0], Long.parseLong(fields[1]), Long.parseLong(fields[2]), Long.parseLong(fields[3]));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
