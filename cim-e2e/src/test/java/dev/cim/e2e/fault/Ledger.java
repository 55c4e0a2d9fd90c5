package dev.cim.e2e.fault;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Counts one scenario from what its clients printed: a message counts as <b>sent</b> once the
 * server confirmed it to its sender (ACK: it reached the recipient's session, or is stored
 * durably), and then must be shown exactly once, in order. <b>Lost</b>: confirmed, never shown.
 * <b>Duplicated</b>: shown more than once (across receiver restarts too), but for the one repeat the
 * client allows: a receiver killed after showing a message and before recording its id (the
 * README's "may show it once more") shows it again first when it comes back; such a repeat is
 * counted apart, as <b>shown again after a kill</b>. <b>Out of order</b>: shown after a message sent
 * later. Messages never confirmed (their sender died first) may or may not arrive; they are counted
 * apart.
 *
 * <p>A message <b>refused</b> (FAIL: the server told its sender it was not sent) is neither lost
 * nor confirmed: it is counted and reported apart. A scenario says which refusals it expects (while
 * Redis is down, what needs it is refused, as the README promises); any other refusal is
 * <b>unexpected</b>, and a scenario with one is not clean.
 */
final class Ledger {

    /** One scenario's counts. */
    record Counts(int confirmed, int shown, int lost, int duplicated, int outOfOrder, int unconfirmedShown,
            int shownAgainAfterKill, int refused, int unexpectedlyRefused) {

        boolean clean() {
            return lost == 0 && duplicated == 0 && outOfOrder == 0 && unexpectedlyRefused == 0;
        }

        /**
         * Clean but for order, which a frozen node may break as the README says ("Across nodes, order
         * has two limits"): a client that moved off it gets that connection's unacknowledged messages
         * when it resumes, after newer ones. Still nothing lost, shown twice or refused.
         */
        boolean cleanButOrder() {
            return lost == 0 && duplicated == 0 && unexpectedlyRefused == 0;
        }
    }

    private final String expectedRefusal;
    private final Set<Long> confirmed = new HashSet<>();
    /** Each refused message's number and the reason its sender was given. */
    private final Map<Long, String> refused = new LinkedHashMap<>();
    private final List<Long> shown = new ArrayList<>();
    /** The last message each receiver before the current one showed. */
    private Long lastOfPrevious;
    private int shownAgainAfterKill;

    /** A ledger of a scenario in which no message may be refused. */
    Ledger() {
        this.expectedRefusal = null;
    }

    /** A ledger of a scenario in which a refusal whose reason contains {@code expectedRefusal} may happen. */
    Ledger(String expectedRefusal) {
        this.expectedRefusal = Objects.requireNonNull(expectedRefusal,
                "expectedRefusal (expected: part of the reason of a refusal the scenario may cause)");
    }

    /** Reads the output of one sender process. */
    void sender(String transcript) {
        for (String line : transcript.split("\n")) {
            if (line.startsWith("ACK ")) {
                confirmed.add(Long.parseLong(line.substring(4).trim()));
            } else if (line.startsWith("FAIL ")) {
                String[] words = line.split(" ", 3);
                refused.put(Long.parseLong(words[1]), words.length > 2 ? words[2] : "");
            }
        }
    }

    /**
     * Reads the output of one receiver process; give them in the order they ran, each after the one
     * before was killed.
     */
    void receiver(String transcript) {
        List<Long> mine = new ArrayList<>();
        for (String line : transcript.split("\n")) {
            if (line.startsWith("RECV ")) {
                mine.add(Long.parseLong(line.split(" ")[2].trim()));
            }
        }
        if (!mine.isEmpty() && mine.get(0).equals(lastOfPrevious)) {
            shownAgainAfterKill++;
            mine.remove(0);
        }
        shown.addAll(mine);
        if (!shown.isEmpty()) {
            lastOfPrevious = shown.get(shown.size() - 1);
        }
    }

    Set<Long> confirmed() {
        return confirmed;
    }

    /** True when every confirmed message has been shown. */
    boolean allShown() {
        return notShown().isEmpty();
    }

    /** The confirmed messages not shown (yet), in order. */
    List<Long> notShown() {
        Set<Long> seen = new HashSet<>(shown);
        return confirmed.stream().filter(n -> !seen.contains(n)).sorted().toList();
    }

    /** The refusals the scenario did not expect, as "n: reason". */
    List<String> unexpectedRefusals() {
        return refused.entrySet().stream()
                .filter(r -> expectedRefusal == null || !r.getValue().contains(expectedRefusal))
                .map(r -> r.getKey() + ": " + r.getValue())
                .toList();
    }

    /** The counts of several ledgers, added up (a group's: one per member and sender). */
    static Counts sum(List<Ledger> ledgers) {
        int[] t = new int[9];
        for (Ledger ledger : ledgers) {
            Counts c = ledger.counts();
            int[] v = {c.confirmed(), c.shown(), c.lost(), c.duplicated(), c.outOfOrder(), c.unconfirmedShown(),
                c.shownAgainAfterKill(), c.refused(), c.unexpectedlyRefused()};
            for (int i = 0; i < t.length; i++) {
                t[i] += v[i];
            }
        }
        return new Counts(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8]);
    }

    Counts counts() {
        Map<Long, Integer> times = new HashMap<>();
        int outOfOrder = 0;
        long highest = Long.MIN_VALUE;
        for (long n : shown) {
            times.merge(n, 1, Integer::sum);
            if (n < highest && times.get(n) == 1) {
                outOfOrder++;
            }
            highest = Math.max(highest, n);
        }
        int lost = (int) confirmed.stream().filter(n -> !times.containsKey(n)).count();
        int duplicated = (int) times.values().stream().filter(t -> t > 1).count();
        int unconfirmedShown = (int) times.keySet().stream().filter(n -> !confirmed.contains(n)).count();
        return new Counts(confirmed.size(), times.size(), lost, duplicated, outOfOrder, unconfirmedShown,
                shownAgainAfterKill, refused.size(), unexpectedRefusals().size());
    }
}
