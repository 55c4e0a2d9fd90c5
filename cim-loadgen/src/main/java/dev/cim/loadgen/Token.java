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

    /**
     * {@link #text()} made exactly {@code length} characters long by a fifth field of filler, for
     * measurements whose cost depends on the text's length; unchanged if it is that long already.
     *
     * @throws IllegalArgumentException if the text is longer than {@code length}, or one short of it
     *                                  (no room for a separator and a filler character)
     */
    String text(int length) {
        String text = text();
        if (text.length() == length) {
            return text;
        }
        if (text.length() + 2 > length) {
            throw new IllegalArgumentException("token '" + text + "' cannot be padded to " + length + " characters");
        }
        return text + ' ' + "x".repeat(length - text.length() - 1);
    }

    /** Reads a text written by {@link #text()} or {@link #text(int)}, or null for any other text. */
    static Token parse(String text) {
        String[] fields = text.split(" ", -1);
        if (fields.length != 4 && (fields.length != 5 || fields[4].isEmpty() || !fields[4].chars().allMatch(c -> c == 'x'))) {
            return null;
        }
        try {
            return new Token(fields[0], Long.parseLong(fields[1]), Long.parseLong(fields[2]), Long.parseLong(fields[3]));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
