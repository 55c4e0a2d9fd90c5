package dev.cim.loadgen;

import dev.cim.common.protocol.UserNames;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Users going offline as the server sees it: their clients closed, and the server's list of who is
 * online without them. Their presence is gone from Redis then, so what the server holds for them
 * from that moment is held for users who are away (an inbox copy, a "when online" message), and
 * Redis' memory is read without their presence.
 */
final class Offline {

    private static final long POLL_MILLIS = 20;

    private Offline() {
    }

    /**
     * Closes {@code leaving}'s clients and waits until the server lists none of them online, as
     * {@code asker} (still logged in) reads it, at most {@code timeout}.
     *
     * @return "" once they are offline, else what the report should say
     */
    static String closeAndAwait(LoadClient asker, List<LoadClient> leaving, Duration timeout)
            throws InterruptedException {
        leaving.forEach(LoadClient::close);
        Set<String> users = new HashSet<>();
        leaving.forEach(client -> users.add(UserNames.canonical(client.user())));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                List<String> online = asker.client().onlineUsers()
                        .get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (online.stream().noneMatch(users::contains)) {
                    return "";
                }
            } catch (ExecutionException | TimeoutException e) {
                // asked again until the deadline
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS)); // polling a condition, with a deadline
        }
        return "; **some of the closed clients' users were still listed online after " + timeout.toSeconds()
                + " s**";
    }
}
