package dev.cim.loadgen;

import java.util.concurrent.ThreadLocalRandom;

/**
 * What the generator writes in a chat text so the receiver can account for it: a tag naming the
 * measurement, the message's sequence number and up to two {@link System#nanoTime()} stamps, e.g.
 * {@code "p50 1234 987654321000 0"}. Sender and receivers are in this one JVM, so nanoTime is one
 * clock for both.
 *
 * @param tag   names the measurement; a receipt of another tag is not this measurement's (part 1's
 *              tags are also this run's: {@link #ofThisRun})
 * @param seq   the {@link DeliveryLedger} number
 * @param nanos the stamp the latency is measured from (send time, or due time)
 * @param extra a second stamp, or 0
 */
record Token(String tag, long seq, long nanos, long extra) {

    /**
     * This generator process's mark, a few random characters that part 1's tags end with
     * ({@link #ofThisRun}), so that a text an earlier run left behind is none of this run's. A cim
     * side's users are new accounts in every run, and an MQTT side's sessions are new too, but the
     * users of an XMPP side are the same accounts every time (ejabberd's u0, u1, ...), and the
     * server delivers at their login what an earlier run (one that was stopped midway) left in
     * their offline store: with a tag of its own kind and a number this run issues too, such a text
     * would count as this run's message, and the real one as its duplicate.
     */
    private static final String RUN = Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);

    /**
     * The tag of {@code measurement} in this run: {@code "c3.k9x"} for {@code "c3"}.
     *
     * @throws IllegalArgumentException if {@code measurement} is empty or has a space
     */
    static String ofThisRun(String measurement) {
        if (measurement.isEmpty() || measurement.indexOf(' ') >= 0) {
            throw new IllegalArgumentException("measurement: '" + measurement + "' (expected: a word, no spaces)");
        }
        return measurement + '.' + RUN;
    }

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
