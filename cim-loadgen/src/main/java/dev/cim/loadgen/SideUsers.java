package dev.cim.loadgen;

import dev.cim.loadgen.peer.PeerPool;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The users of one side of a comparison ({@link ComparisonPart}), logged in and closed together:
 * cim clients through a {@link Dialer} ({@link #cim}), or a peer server's clients ({@link #peer}: an
 * MQTT broker's, an XMPP server's). What the comparison then does with them is the same for all
 * ({@link ChatUser}).
 */
interface SideUsers extends AutoCloseable {

    /**
     * Logs in {@code count} users named from {@code prefix}, waiting at most {@code timeout} in all,
     * and notes in {@code report} how many did.
     *
     * @param side the side's name in the report
     * @return the users that logged in
     */
    List<? extends ChatUser> open(String prefix, int count, Duration timeout, String side, Report report)
            throws InterruptedException;

    /** How the users connect, for the report. */
    String connections();

    /** What became of their connections, for the report: "dropped 0, ...". */
    String counters();

    /** Closes every user's connection (not counted as dropped). */
    @Override
    void close();

    /** A pool of cim clients, on {@code dialer}'s event loops. */
    static SideUsers cim(Dialer dialer) {
        return new Cim(dialer, dialer.pool());
    }

    /** The clients of a peer server. */
    static SideUsers peer(PeerPool pool) {
        return new Peer(pool);
    }

    /** "server users: 1,000 logged in of 1,000 in 2.1 s". */
    private static void noteLogins(Report report, String side, int opened, int asked, Duration elapsed, int failed,
            String firstFailure) {
        report.note(String.format(Locale.ROOT, "%s users: %,d logged in of %,d in %.1f s%s", side, opened, asked,
                elapsed.toMillis() / 1000.0, failed == 0 ? "" : "; failed " + failed + ": " + firstFailure));
    }

    /** cim users: a {@link ClientPool}. */
    record Cim(Dialer dialer, ClientPool pool) implements SideUsers {

        @Override
        public List<LoadClient> open(String prefix, int count, Duration timeout, String side, Report report)
                throws InterruptedException {
            Opened<LoadClient> opened = pool.open(prefix, count, timeout);
            noteLogins(report, side, opened.clients().size(), count, opened.elapsed(), opened.failed(),
                    opened.firstFailure());
            return opened.clients();
        }

        @Override
        public String connections() {
            return dialer.describe();
        }

        @Override
        public String counters() {
            return pool.counters().toString();
        }

        @Override
        public void close() {
            pool.close();
        }
    }

    /** A peer server's users: a {@link PeerPool}. */
    record Peer(PeerPool pool) implements SideUsers {

        @Override
        public List<? extends ChatUser> open(String prefix, int count, Duration timeout, String side, Report report)
                throws InterruptedException {
            Opened<? extends ChatUser> opened = pool.open(prefix, count, timeout);
            noteLogins(report, side, opened.clients().size(), count, opened.elapsed(), opened.failed(),
                    opened.firstFailure());
            return opened.clients();
        }

        @Override
        public String connections() {
            return pool.describe();
        }

        @Override
        public String counters() {
            return "dropped " + pool.dropped() + " (no automatic reconnect)";
        }

        @Override
        public void close() {
            pool.close();
        }
    }
}
