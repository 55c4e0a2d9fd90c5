package dev.cim.server.chat.fakes;

import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.SentRecord;
import dev.cim.server.chat.schedule.Scheduling;
import dev.cim.server.store.ScheduledStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scheduled messages in maps, one bucket, for what {@link Scheduling} does with them: claims, scans,
 * leases, as the Redis store keeps them (a claimed message stays due; an ended lease is forgotten). The next {@link #failClaims} batches of claims fail, as when Redis does not answer.
 */
public final class MapScheduledStore implements ScheduledStore {

    public final AtomicInteger failClaims = new AtomicInteger();
    /** The messages claimed, in order. */
    public final List<Ref> claimed = new CopyOnWriteArrayList<>();
    private final Map<Ref, Scheduled> bodies = new HashMap<>();
    private final Map<Ref, Long> due = new HashMap<>();
    private final Map<Ref, Long> leases = new HashMap<>();
    /** Claims whose lease ended before they were finished, as the Redis store's lapsed set. */
    private final java.util.Set<Ref> lapsed = new java.util.HashSet<>();
    private final Map<String, List<SentRecord>> records = new HashMap<>();
    private final Map<String, java.util.Set<Ref>> waiting = new HashMap<>();

    public synchronized void put(String user, Scheduled message) {
        Ref ref = new Ref(user, message.getId());
        bodies.put(ref, message);
        due.put(ref, message.getDueAtMillis());
    }

    @Override
    public int buckets() {
        return 1;
    }

    @Override
    public synchronized List<Registration> registerAll(List<Draft> drafts, int maxPerUser) {
        List<Registration> registered = new ArrayList<>(drafts.size());
        for (Draft draft : drafts) {
            Scheduled message = draft.draft().toBuilder().setNumber(bodies.size() + 1).build();
            put(draft.user(), message);
            registered.add(new Registration.Created(message));
        }
        return registered;
    }

    @Override
    public List<Scheduled> list(String user) {
        throw new UnsupportedOperationException("not used by these tests");
    }

    @Override
    public synchronized Optional<Scheduled> update(String user, String id, UnaryOperator<Scheduled> change) {
        Ref ref = new Ref(user, id);
        Scheduled current = bodies.get(ref);
        if (current == null || leases.containsKey(ref)) {
            return Optional.empty();
        }
        Scheduled updated = change.apply(current).toBuilder().setId(id).setNumber(current.getNumber()).build();
        put(user, updated);
        return Optional.of(updated);
    }

    @Override
    public Optional<Scheduled> cancel(String user, String id) {
        throw new UnsupportedOperationException("not used by these tests");
    }

    @Override
    public synchronized List<Claim> claimAllNow(List<Ref> messages, long nowMillis, long leaseUntilMillis) {
        return claim(messages, nowMillis, leaseUntilMillis, true);
    }

    @Override
    public synchronized void waitFor(String recipient, Ref message) {
        waiting.computeIfAbsent(recipient, r -> new java.util.LinkedHashSet<>()).add(message);
    }

    @Override
    public synchronized List<Ref> waiting(String recipient, int limit) {
        return waiting.getOrDefault(recipient, java.util.Set.of()).stream().limit(limit).toList();
    }

    @Override
    public synchronized void unwait(String recipient, List<Ref> messages) {
        messages.forEach(waiting.getOrDefault(recipient, new java.util.HashSet<>())::remove);
    }

    @Override
    public synchronized List<Claim> claimAll(List<Ref> messages, long nowMillis, long leaseUntilMillis) {
        return claim(messages, nowMillis, leaseUntilMillis, false);
    }

    private List<Claim> claim(List<Ref> messages, long nowMillis, long leaseUntilMillis, boolean evenIfNotDue) {
        if (failClaims.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IllegalStateException("the store did not answer");
        }
        List<Claim> claims = new ArrayList<>();
        for (Ref ref : messages) {
            Long dueAt = due.get(ref);
            Long lease = leases.get(ref);
            if (dueAt == null || (lease != null && lease > nowMillis)) {
                claims.add(new Claim.Gone());
            } else if (dueAt > nowMillis && !evenIfNotDue) {
                claims.add(new Claim.NotDue(bodies.get(ref)));
            } else {
                boolean ranOut = lapsed.remove(ref) | leases.put(ref, leaseUntilMillis) != null;
                claimed.add(ref);
                claims.add(new Claim.Claimed(bodies.get(ref), ranOut));
            }
        }
        return claims;
    }

    @Override
    public synchronized Scan scanAll(long nowMillis, long afterMillis, long untilMillis, long overdueUntilMillis,
            int limit) {
        List<Ref> expired = leases.entrySet().stream().filter(e -> e.getValue() <= nowMillis).map(Map.Entry::getKey).toList();
        expired.forEach(leases::remove);
        lapsed.addAll(expired);
        List<Entry> entries = new ArrayList<>(due(afterMillis, untilMillis, limit));
        if (overdueUntilMillis != Long.MIN_VALUE) {
            entries.addAll(due(Long.MIN_VALUE, overdueUntilMillis, limit));
        }
        return new Scan(expired.size(), entries, bodies.size());
    }

    private List<Entry> due(long afterMillis, long untilMillis, int limit) {
        return due.entrySet().stream()
                .filter(e -> (afterMillis == Long.MIN_VALUE || e.getValue() > afterMillis) && e.getValue() <= untilMillis)
                .sorted(Map.Entry.comparingByValue(Comparator.naturalOrder()))
                .limit(limit)
                .filter(e -> !leases.containsKey(e.getKey())) // as Redis: the limit counts the claimed
                .map(e -> new Entry(e.getKey().user(), bodies.get(e.getKey())))
                .toList();
    }

    @Override
    public synchronized List<Finished> finishAll(List<Finish> finishes, Keep keep) {
        List<Finished> finished = new ArrayList<>();
        for (Finish finish : finishes) {
            Ref ref = finish.ref();
            leases.remove(ref);
            Long dueAt = due.get(ref);
            if (dueAt == null || dueAt != finish.dueAt()) {
                finished.add(Finished.GONE);
                continue;
            }
            finished.add(Finished.DONE);
            lapsed.remove(ref);
            if (finish.next() == null) {
                due.remove(ref);
                bodies.remove(ref);
            } else {
                put(ref.user(), finish.next());
            }
            if (finish.record() != null) {
                records.computeIfAbsent(ref.user(), u -> new ArrayList<>()).add(0, finish.record());
            }
        }
        return finished;
    }

    @Override
    public synchronized List<SentRecord> records(String user, int limit, long notBeforeMillis) {
        return records.getOrDefault(user, List.of()).stream().filter(r -> r.getAtMillis() >= notBeforeMillis)
                .limit(limit).toList();
    }

    @Override
    public synchronized long count() {
        return bodies.size();
    }
}
