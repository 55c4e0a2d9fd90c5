package dev.cim.server.redis;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.SentRecord;
import dev.cim.server.store.ScheduledStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.ScanOptions;

/**
 * Scheduled messages in Redis, spread over {@code buckets} buckets by user (see {@link RedisKeys}): in
 * each, a sorted set of the messages by due time, one of the claimed ones by lease end, and a hash of
 * the bodies; and per user a small hash with their last number and count. Every step is one Lua
 * script over one bucket's keys, declared, so it is valid on a cluster.
 *
 * <h3>Memory</h3>
 * A message costs one sorted-set member and one hash field (the same name: the user and the id,
 * packed) with its body as value, and nothing else; {@link ScheduledLayout} has the bytes. A user's
 * messages are listed by scanning their bucket's hash for their prefix, which with the default 256
 * buckets reads a few thousand fields.
 *
 * <h3>Claims</h3>
 * A claimed message stays in the due set, at its due time (its body does not hold it), and is also
 * in the claimed set until its lease ends; everything that reads the due set for sending passes over
 * the claimed ones. A claim whose lease has ended is forgotten: the message is overdue, and the next
 * scan finds it; its name goes to the lapsed set, and the next claim is told (its sender may have sent
 * it and died before finishing it).
 *
 * <p>Its length is its Lua scripts, one per atomic step of the {@link ScheduledStore} contract, each
 * with a comment on its keys and answers; the byte layout is {@link ScheduledLayout}'s.
 */
public final class RedisScheduledStore implements ScheduledStore {

    private static final Logger log = LoggerFactory.getLogger(RedisScheduledStore.class);

    // KEYS: due, bodies, user (all of one user). ARGV: max per user, then for each message its name,
    // due time and draft. Returns for each three values: 0, number, 0 created; 1, body, due existing;
    // 2, count, 0 too many. The number is put in front of the draft as protobuf field 2 (a varint).
    // A new message costs one HSETNX (the check and the write) and its ZADD; the counters are written
    // once, at the end.
    private static final LuaScript REGISTER = new LuaScript("register", """
            local max = tonumber(ARGV[1])
            local counters = redis.call('HMGET', KEYS[3], 'n', 'c')
            local number = tonumber(counters[1] or '0')
            local count = tonumber(counters[2] or '0')
            local created = false
            local out = {}
            for i = 2, #ARGV, 3 do
              local n, field = number + 1, '\\16'
              while n >= 128 do
                field = field .. string.char(n % 128 + 128)
                n = math.floor(n / 128)
              end
              if count < max and redis.call('HSETNX', KEYS[2], ARGV[i], field .. string.char(n) .. ARGV[i + 2]) == 1 then
                number = number + 1
                count = count + 1
                created = true
                redis.call('ZADD', KEYS[1], ARGV[i + 1], ARGV[i])
                out[#out + 1] = 0
                out[#out + 1] = number
                out[#out + 1] = 0
              else
                local existing = redis.call('HGET', KEYS[2], ARGV[i])
                if existing then
                  out[#out + 1] = 1
                  out[#out + 1] = existing
                  out[#out + 1] = redis.call('ZSCORE', KEYS[1], ARGV[i]) or ARGV[i + 1]
                else
                  out[#out + 1] = 2
                  out[#out + 1] = count
                  out[#out + 1] = 0
                end
              end
            end
            if created then redis.call('HSET', KEYS[3], 'n', number, 'c', count) end
            return out
            """);

    // KEYS: due, claimed, bodies. ARGV: member, expected body, new body, new due ('' for unchanged),
    // expected due. Returns {0} changed, {1} being sent, {2} gone, {3} changed meanwhile (read again).
    private static final LuaScript EDIT = new LuaScript("edit", """
            if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return {1} end
            local value = redis.call('HGET', KEYS[3], ARGV[1])
            if not value then return {2} end
            local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
            if value ~= ARGV[2] or not due or tonumber(due) ~= tonumber(ARGV[5]) then return {3} end
            redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
            if ARGV[4] ~= '' then redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1]) end
            return {0}
            """);

    // KEYS: due, claimed, bodies, user, lapsed. ARGV: member, '1' to cancel even while it is being sent.
    // Returns {0, body, due} cancelled, {1, body} being sent, {2} gone.
    private static final LuaScript CANCEL = new LuaScript("cancel", """
            local value = redis.call('HGET', KEYS[3], ARGV[1])
            if not value then return {2} end
            if ARGV[2] ~= '1' and redis.call('ZSCORE', KEYS[2], ARGV[1]) then return {1, value} end
            local due = redis.call('ZSCORE', KEYS[1], ARGV[1]) or '0'
            redis.call('HDEL', KEYS[3], ARGV[1])
            redis.call('ZREM', KEYS[1], ARGV[1])
            redis.call('SREM', KEYS[5], ARGV[1])
            redis.call('HINCRBY', KEYS[4], 'c', -1)
            return {0, value, due}
            """);

    // KEYS: due, claimed, bodies, lapsed. ARGV: member, now, lease end, '1' to claim even if not due.
    // Returns {0, body, due, lapsed} claimed (lapsed 1 when an earlier claim of it ran out unfinished),
    // {1, body, due} not due, {2} gone (or claimed, its lease running).
    private static final LuaScript CLAIM = new LuaScript("claim", """
            local lease = redis.call('ZSCORE', KEYS[2], ARGV[1])
            if lease and tonumber(lease) > tonumber(ARGV[2]) then return {2} end
            local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
            if not due then return {2} end
            local value = redis.call('HGET', KEYS[3], ARGV[1])
            if not value then
              redis.call('ZREM', KEYS[1], ARGV[1])
              redis.call('ZREM', KEYS[2], ARGV[1])
              redis.call('SREM', KEYS[4], ARGV[1])
              return {2}
            end
            if ARGV[4] ~= '1' and tonumber(due) > tonumber(ARGV[2]) then return {1, value, due} end
            local lapsed = redis.call('SREM', KEYS[4], ARGV[1])
            if lease then lapsed = 1 end
            redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
            return {0, value, due, lapsed}
            """);

    // KEYS: due, claimed, bodies, lapsed. ARGV: now, after ('' for the first), until, overdue until ('' for
    // none), limit. Forgets the claims whose lease ended by now (their messages are overdue in the due
    // set; the next claim is told they lapsed), reads the due set from after (excluded) to until and from the first to overdue until,
    // passing over the claimed, and counts. Returns {freed, count, name, due, body, ...}.
    private static final LuaScript SCAN = new LuaScript("scan", """
            local freed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 1000)
            for _, name in ipairs(freed) do
              redis.call('ZREM', KEYS[2], name)
              redis.call('SADD', KEYS[4], name)
              -- Servers before commit 410fd22 took a claimed message out of the due set: back where this scan reads.
              if not redis.call('ZSCORE', KEYS[1], name) then
                local at = ARGV[1]
                if ARGV[4] ~= '' then at = ARGV[4] end
                redis.call('ZADD', KEYS[1], at, name)
              end
            end
            local limit = tonumber(ARGV[5])
            local from = '-inf'
            if ARGV[2] ~= '' then from = '(' .. ARGV[2] end
            local found = redis.call('ZRANGEBYSCORE', KEYS[1], from, ARGV[3], 'WITHSCORES', 'LIMIT', 0, limit)
            if ARGV[4] ~= '' then
              for _, x in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[4], 'WITHSCORES', 'LIMIT', 0, limit)) do
                found[#found + 1] = x
              end
            end
            local out = {#freed, redis.call('HLEN', KEYS[3])}
            for i = 1, #found, 2 do
              if not redis.call('ZSCORE', KEYS[2], found[i]) then
                local body = redis.call('HGET', KEYS[3], found[i])
                if body then
                  out[#out + 1] = found[i]
                  out[#out + 1] = found[i + 1]
                  out[#out + 1] = body
                end
              end
            end
            return out
            """);

    // KEYS: due, claimed, bodies, user, record, lapsed. ARGV: member, due as claimed, next body ('' to forget),
    // next due, record ('' for none), records kept, their age in ms. Unless the message is no longer due
    // as claimed (finished already by a later claim), forgets it or moves it to its next occurrence,
    // and adds its record. Returns {0} done, {1} finished already.
    private static final LuaScript FINISH = new LuaScript("finish", """
            redis.call('ZREM', KEYS[2], ARGV[1])
            local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
            if not due or tonumber(due) ~= tonumber(ARGV[2]) then return {1} end
            redis.call('SREM', KEYS[6], ARGV[1])
            if ARGV[3] == '' then
              redis.call('ZREM', KEYS[1], ARGV[1])
              if redis.call('HDEL', KEYS[3], ARGV[1]) == 1 then redis.call('HINCRBY', KEYS[4], 'c', -1) end
            else
              redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
              redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
            end
            if ARGV[5] ~= '' then
              redis.call('LPUSH', KEYS[5], ARGV[5])
              redis.call('LTRIM', KEYS[5], 0, tonumber(ARGV[6]) - 1)
              redis.call('PEXPIRE', KEYS[5], ARGV[7])
            end
            return {0}
            """);

    private final RedisTemplate<String, byte[]> redis;
    private final int buckets;
    private final ReplicaAcks acks;

    /**
     * @param buckets how many buckets, 1 to 16384 (more buckets: smaller per-user scans, more keys to
     *                read per scan)
     */
    public RedisScheduledStore(RedisTemplate<String, byte[]> redis, int buckets) {
        this(redis, buckets, ReplicaAcks.NONE);
    }

    /**
     * @param acks what a registration waits for before it counts as held (replicas having it)
     */
    public RedisScheduledStore(RedisTemplate<String, byte[]> redis, int buckets, ReplicaAcks acks) {
        if (buckets < 1 || buckets > 16384) {
            throw new IllegalArgumentException("buckets: " + buckets + " (expected: 1 to 16384)");
        }
        this.redis = redis;
        this.buckets = buckets;
        this.acks = acks;
    }

    @Override
    public int buckets() {
        return buckets;
    }

    private int bucketOf(String user) {
        return Math.floorMod(user.hashCode(), buckets);
    }

    private static List<byte[]> keys(String... keys) {
        List<byte[]> bytes = new ArrayList<>(keys.length);
        for (String key : keys) {
            bytes.add(RedisBytes.of(key));
        }
        return bytes;
    }

    /** One script call per user in the batch: most of a batch's messages share their sender with others. */
    @Override
    public List<Registration> registerAll(List<Draft> drafts, int maxPerUser) {
        Map<String, List<Integer>> byUser = new LinkedHashMap<>();
        for (int i = 0; i < drafts.size(); i++) {
            byUser.computeIfAbsent(drafts.get(i).user(), u -> new ArrayList<>()).add(i);
        }
        byte[] max = RedisBytes.of(maxPerUser);
        List<LuaScript.Call> calls = new ArrayList<>(byUser.size());
        for (Map.Entry<String, List<Integer>> user : byUser.entrySet()) {
            int b = bucketOf(user.getKey());
            List<byte[]> args = new ArrayList<>(1 + 3 * user.getValue().size());
            args.add(max);
            for (int i : user.getValue()) {
                Scheduled draft = drafts.get(i).draft();
                args.add(ScheduledLayout.name(user.getKey(), draft.getId()));
                args.add(RedisBytes.of(draft.getDueAtMillis()));
                args.add(ScheduledLayout.draft(draft));
            }
            calls.add(new LuaScript.Call(
                    keys(RedisKeys.scheduledDue(b), RedisKeys.scheduledBodies(b), RedisKeys.scheduledUser(b, user.getKey())),
                    args));
        }
        List<Object> replies = REGISTER.runAll(redis, calls);
        RuntimeException unreplicated = null;
        try {
            acks.awaitAll(calls.stream().map(call -> call.keys().get(2)).toList());
        } catch (RuntimeException e) {
            unreplicated = e; // held by the master only: not confirmed (a resend registers nothing twice)
        }
        Registration[] registrations = new Registration[drafts.size()];
        int call = 0;
        for (List<Integer> positions : byUser.values()) {
            Object reply = replies.get(call++);
            for (int k = 0; k < positions.size(); k++) {
                int i = positions.get(k);
                registrations[i] = reply instanceof RuntimeException e ? new Registration.Failed(e)
                        : unreplicated != null ? new Registration.Failed(unreplicated)
                        : registration((List<?>) reply, 3 * k, drafts.get(i).draft(), maxPerUser);
            }
        }
        return Arrays.asList(registrations);
    }

    private static Registration registration(List<?> reply, int at, Scheduled draft, int maxPerUser) {
        return switch ((int) RedisBytes.number(reply.get(at))) {
            case 0 -> new Registration.Created(ScheduledLayout.numbered(draft, RedisBytes.number(reply.get(at + 1))));
            case 1 -> new Registration.Existing(ScheduledLayout.parse((byte[]) reply.get(at + 1), draft.getId(),
                    ScheduledLayout.dueAt(reply.get(at + 2))));
            default -> new Registration.TooMany(maxPerUser);
        };
    }

    @Override
    public List<Scheduled> list(String user) {
        int b = bucketOf(user);
        byte[] key = RedisBytes.of(RedisKeys.scheduledBodies(b));
        String prefix = user + '\n';
        byte[] dueKey = RedisBytes.of(RedisKeys.scheduledDue(b));
        List<Scheduled> messages = new ArrayList<>();
        // The pattern is a filter on Redis' side; each name's user is checked here too.
        redis.execute((RedisCallback<Void>) c -> {
            List<byte[]> names = new ArrayList<>();
            List<byte[]> bodies = new ArrayList<>();
            ScanOptions options = ScanOptions.scanOptions().match(globEscape(prefix) + "*").count(1000).build();
            try (Cursor<Map.Entry<byte[], byte[]>> cursor = c.hashCommands().hScan(key, options)) {
                while (cursor.hasNext()) {
                    Map.Entry<byte[], byte[]> field = cursor.next();
                    if (ScheduledLayout.user(field.getKey()).equals(user)) {
                        names.add(field.getKey());
                        bodies.add(field.getValue());
                    }
                }
            }
            if (names.isEmpty()) {
                return null;
            }
            List<Double> dues = c.zSetCommands().zMScore(dueKey, names.toArray(byte[][]::new));
            for (int i = 0; i < names.size(); i++) {
                Double due = dues == null ? null : dues.get(i);
                if (due != null) { // else cancelled or sent since the hash was read
                    messages.add(ScheduledLayout.parse(bodies.get(i), ScheduledLayout.id(names.get(i)), due.longValue()));
                }
            }
            return null;
        });
        messages.sort(Comparator.comparingLong(Scheduled::getDueAtMillis).thenComparingLong(Scheduled::getNumber));
        return messages;
    }

    private static String globEscape(String text) {
        StringBuilder escaped = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }

    /** A message's body and due time as an edit reads them, to compare and set. */
    private record Current(byte[] body, Double due) {
    }

    @Override
    public Optional<Scheduled> update(String user, String id, UnaryOperator<Scheduled> change) {
        int b = bucketOf(user);
        byte[] member = ScheduledLayout.name(user, id);
        for (int attempt = 0; attempt < 10; attempt++) {
            Current current = redis.execute((RedisCallback<Current>) c -> new Current(
                    c.hashCommands().hGet(RedisBytes.of(RedisKeys.scheduledBodies(b)), member),
                    c.zSetCommands().zScore(RedisBytes.of(RedisKeys.scheduledDue(b)), member)));
            if (current == null || current.body() == null || current.due() == null) {
                return Optional.empty();
            }
            long currentDue = current.due().longValue();
            Scheduled read = ScheduledLayout.parse(current.body(), id, currentDue);
            Scheduled updated = change.apply(read).toBuilder().setId(id).setNumber(read.getNumber()).build();
            long dueAtMillis = updated.getDueAtMillis() == currentDue ? 0 : updated.getDueAtMillis();
            List<?> reply = (List<?>) EDIT.run(redis,
                    keys(RedisKeys.scheduledDue(b), RedisKeys.scheduledClaimed(b), RedisKeys.scheduledBodies(b)),
                    List.of(member, current.body(), ScheduledLayout.body(updated),
                            dueAtMillis == 0 ? new byte[0] : RedisBytes.of(dueAtMillis), RedisBytes.of(currentDue)));
            switch ((int) RedisBytes.number(reply.get(0))) {
                case 0:
                    return Optional.of(updated);
                case 3:
                    continue; // edited from elsewhere between our read and write: read again
                default:
                    return Optional.empty();
            }
        }
        log.warn("Gave up editing scheduled message {} of {}: it kept changing", id, user);
        return Optional.empty();
    }

    /**
     * A message being sent is not cancelled (it is going out), unless it is a recurring one: then
     * the series ends with the occurrence being sent (asked again, forced: its finish then finds it
     * gone and does not move it on).
     */
    @Override
    public Optional<Scheduled> cancel(String user, String id) {
        int b = bucketOf(user);
        List<byte[]> keys = keys(RedisKeys.scheduledDue(b), RedisKeys.scheduledClaimed(b), RedisKeys.scheduledBodies(b),
                RedisKeys.scheduledUser(b, user), RedisKeys.scheduledLapsed(b));
        byte[] name = ScheduledLayout.name(user, id);
        List<?> reply = (List<?>) CANCEL.run(redis, keys, List.of(name, RedisBytes.of("0")));
        long outcome = RedisBytes.number(reply.get(0));
        if (outcome == 1 && !ScheduledLayout.parse((byte[]) reply.get(1), id, 0).getTiming().getEvery().isEmpty()) {
            reply = (List<?>) CANCEL.run(redis, keys, List.of(name, RedisBytes.of("1")));
            outcome = RedisBytes.number(reply.get(0));
        }
        return outcome == 0
                ? Optional.of(ScheduledLayout.parse((byte[]) reply.get(1), id, ScheduledLayout.dueAt(reply.get(2))))
                : Optional.empty();
    }

    @Override
    public List<Claim> claimAll(List<Ref> messages, long nowMillis, long leaseUntilMillis) {
        return claim(messages, nowMillis, leaseUntilMillis, false);
    }

    @Override
    public List<Claim> claimAllNow(List<Ref> messages, long nowMillis, long leaseUntilMillis) {
        return claim(messages, nowMillis, leaseUntilMillis, true);
    }

    private List<Claim> claim(List<Ref> messages, long nowMillis, long leaseUntilMillis, boolean evenIfNotDue) {
        byte[] evenEarly = RedisBytes.of(evenIfNotDue ? "1" : "0");
        byte[] now = RedisBytes.of(nowMillis);
        byte[] leaseUntil = RedisBytes.of(leaseUntilMillis);
        List<LuaScript.Call> calls = new ArrayList<>(messages.size());
        for (Ref ref : messages) {
            int b = bucketOf(ref.user());
            calls.add(new LuaScript.Call(
                    keys(RedisKeys.scheduledDue(b), RedisKeys.scheduledClaimed(b), RedisKeys.scheduledBodies(b),
                            RedisKeys.scheduledLapsed(b)),
                    List.of(ScheduledLayout.name(ref.user(), ref.id()), now, leaseUntil, evenEarly)));
        }
        List<Object> replies = CLAIM.runAll(redis, calls);
        List<Claim> claims = new ArrayList<>(replies.size());
        for (int i = 0; i < replies.size(); i++) {
            if (replies.get(i) instanceof RuntimeException e) {
                claims.add(new Claim.Failed(e));
                continue;
            }
            List<?> reply = (List<?>) replies.get(i);
            String id = messages.get(i).id();
            claims.add(switch ((int) RedisBytes.number(reply.get(0))) {
                case 0 -> new Claim.Claimed(ScheduledLayout.parse((byte[]) reply.get(1), id, ScheduledLayout.dueAt(reply.get(2))),
                        RedisBytes.number(reply.get(3)) == 1);
                case 1 -> new Claim.NotDue(ScheduledLayout.parse((byte[]) reply.get(1), id, ScheduledLayout.dueAt(reply.get(2))));
                default -> new Claim.Gone();
            });
        }
        return claims;
    }

    @Override
    public void waitFor(String recipient, Ref message) {
        redis.opsForSet().add(RedisKeys.waiting(recipient), ScheduledLayout.name(message.user(), message.id()));
    }

    @Override
    public List<Ref> waiting(String recipient, int limit) {
        List<Ref> refs = new ArrayList<>();
        redis.execute((RedisCallback<Void>) c -> {
            ScanOptions options = ScanOptions.scanOptions().count(Math.min(limit, 1000)).build();
            try (Cursor<byte[]> cursor = c.setCommands().sScan(RedisBytes.of(RedisKeys.waiting(recipient)), options)) {
                while (cursor.hasNext() && refs.size() < limit) {
                    byte[] name = cursor.next();
                    refs.add(new Ref(ScheduledLayout.user(name), ScheduledLayout.id(name)));
                }
            }
            return null;
        });
        return refs;
    }

    @Override
    public void unwait(String recipient, List<Ref> messages) {
        if (messages.isEmpty()) {
            return;
        }
        Object[] names = messages.stream().map(m -> ScheduledLayout.name(m.user(), m.id())).toArray();
        redis.opsForSet().remove(RedisKeys.waiting(recipient), names);
    }

    /** One script call per bucket, all in one round trip. */
    @Override
    public Scan scanAll(long nowMillis, long afterMillis, long untilMillis, long overdueUntilMillis, int limit) {
        List<byte[]> args = List.of(RedisBytes.of(nowMillis),
                afterMillis == Long.MIN_VALUE ? new byte[0] : RedisBytes.of(afterMillis), RedisBytes.of(untilMillis),
                overdueUntilMillis == Long.MIN_VALUE ? new byte[0] : RedisBytes.of(overdueUntilMillis),
                RedisBytes.of(limit));
        List<LuaScript.Call> calls = new ArrayList<>(buckets);
        for (int b = 0; b < buckets; b++) {
            calls.add(new LuaScript.Call(keys(RedisKeys.scheduledDue(b), RedisKeys.scheduledClaimed(b),
                    RedisKeys.scheduledBodies(b), RedisKeys.scheduledLapsed(b)), args));
        }
        int freed = 0;
        long stored = 0;
        List<Entry> entries = new ArrayList<>();
        for (Object reply : SCAN.runAll(redis, calls)) {
            if (reply instanceof RuntimeException e) {
                throw e; // the whole scan is tried again
            }
            List<?> values = (List<?>) reply;
            freed += (int) RedisBytes.number(values.get(0));
            stored += RedisBytes.number(values.get(1));
            for (int i = 2; i + 2 < values.size(); i += 3) {
                byte[] name = (byte[]) values.get(i);
                entries.add(new Entry(ScheduledLayout.user(name), ScheduledLayout.parse((byte[]) values.get(i + 2),
                        ScheduledLayout.id(name), ScheduledLayout.dueAt(values.get(i + 1)))));
            }
        }
        return new Scan(freed, entries, stored);
    }

    @Override
    public List<Finished> finishAll(List<Finish> finishes, Keep keep) {
        byte[] kept = RedisBytes.of(keep.perUser());
        byte[] age = RedisBytes.of(keep.age().toMillis());
        List<LuaScript.Call> calls = new ArrayList<>(finishes.size());
        for (Finish finish : finishes) {
            Ref ref = finish.ref();
            int b = bucketOf(ref.user());
            Scheduled next = finish.next();
            calls.add(new LuaScript.Call(
                    keys(RedisKeys.scheduledDue(b), RedisKeys.scheduledClaimed(b), RedisKeys.scheduledBodies(b),
                            RedisKeys.scheduledUser(b, ref.user()), RedisKeys.scheduledRecord(b, ref.user()),
                            RedisKeys.scheduledLapsed(b)),
                    List.of(ScheduledLayout.name(ref.user(), ref.id()), RedisBytes.of(finish.dueAt()),
                            next == null ? new byte[0] : ScheduledLayout.body(next),
                            next == null ? new byte[0] : RedisBytes.of(next.getDueAtMillis()),
                            finish.record() == null ? new byte[0] : finish.record().toByteArray(), kept, age)));
        }
        int failed = 0;
        List<Object> replies = FINISH.runAll(redis, calls);
        List<Finished> finished = new ArrayList<>(replies.size());
        for (int i = 0; i < replies.size(); i++) {
            if (replies.get(i) instanceof RuntimeException e) {
                finished.add(Finished.FAILED);
                if (failed++ == 0) {
                    log.warn("Could not finish scheduled message {} of {}: {}", finishes.get(i).ref().id(),
                            finishes.get(i).ref().user(), e.toString());
                }
            } else {
                finished.add(RedisBytes.number(((List<?>) replies.get(i)).get(0)) == 0 ? Finished.DONE : Finished.GONE);
            }
        }
        return finished;
    }

    @Override
    public List<SentRecord> records(String user, int limit, long notBeforeMillis) {
        List<byte[]> values = redis.opsForList().range(RedisKeys.scheduledRecord(bucketOf(user), user), 0, limit - 1);
        List<SentRecord> records = new ArrayList<>();
        for (byte[] value : values == null ? List.<byte[]>of() : values) {
            try {
                SentRecord record = SentRecord.parseFrom(value);
                if (record.getAtMillis() >= notBeforeMillis) {
                    records.add(record);
                }
            } catch (InvalidProtocolBufferException e) {
                log.warn("Skipping an unreadable record of {}'s scheduled messages: {}", user, e.getMessage());
            }
        }
        return records;
    }

    @Override
    public long count() {
        List<Object> counts = RedisBatch.run(redis, (r, sent) -> {
            for (int b = 0; b < buckets; b++) {
                sent.add(r.hlen(RedisBytes.of(RedisKeys.scheduledBodies(b))));
            }
        });
        long total = 0;
        for (Object count : counts) {
            total += count instanceof Long n ? n : 0;
        }
        return total;
    }
}
