package dev.cim.server.redis;

import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.server.store.ScheduledStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
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
 */
public final class RedisScheduledStore implements ScheduledStore {

    private static final Logger log = LoggerFactory.getLogger(RedisScheduledStore.class);

    // KEYS: due, bodies, user. ARGV: member, max per user, due at, body (without number).
    // Returns {0, value} created, {1, value} existing, {2, count} too many.
    private static final LuaScript REGISTER = new LuaScript("register", """
            local existing = redis.call('HGET', KEYS[2], ARGV[1])
            if existing then return {1, existing} end
            local count = tonumber(redis.call('HGET', KEYS[3], 'c') or '0')
            if count >= tonumber(ARGV[2]) then return {2, count} end
            local number = redis.call('HINCRBY', KEYS[3], 'n', 1)
            redis.call('HINCRBY', KEYS[3], 'c', 1)
            local value = number .. '\\n' .. ARGV[4]
            redis.call('HSET', KEYS[2], ARGV[1], value)
            redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
            return {0, value}
            """);

    // KEYS: due, claimed, bodies. ARGV: member, expected value, new value, new due ('' for unchanged).
    // Returns {0} changed, {1} being sent, {2} gone, {3} changed meanwhile (read again).
    private static final LuaScript EDIT = new LuaScript("edit", """
            if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return {1} end
            local value = redis.call('HGET', KEYS[3], ARGV[1])
            if not value then return {2} end
            if value ~= ARGV[2] then return {3} end
            redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
            if ARGV[4] ~= '' then redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1]) end
            return {0}
            """);

    // KEYS: due, claimed, bodies, user. ARGV: member. Returns {0, value} cancelled, {1} being sent, {2} gone.
    private static final LuaScript CANCEL = new LuaScript("cancel", """
            if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return {1} end
            local value = redis.call('HGET', KEYS[3], ARGV[1])
            if not value then return {2} end
            redis.call('HDEL', KEYS[3], ARGV[1])
            redis.call('ZREM', KEYS[1], ARGV[1])
            redis.call('HINCRBY', KEYS[4], 'c', -1)
            return {0, value}
            """);

    // KEYS: due, claimed, bodies. ARGV: member, now, lease end.
    // Returns {0, value} claimed, {1, value} not due, {2} gone.
    private static final LuaScript CLAIM = new LuaScript("claim", """
            local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
            if not due then return {2} end
            local value = redis.call('HGET', KEYS[3], ARGV[1])
            if not value then
              redis.call('ZREM', KEYS[1], ARGV[1])
              return {2}
            end
            if tonumber(due) > tonumber(ARGV[2]) then return {1, value} end
            redis.call('ZREM', KEYS[1], ARGV[1])
            redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
            return {0, value}
            """);

    /**
     * Moves the claims whose lease ran out by ARGV[1] from KEYS[2] (claimed) back to KEYS[1] (due),
     * due then; the Lua table {@code freed} holds them. The start of two scripts.
     */
    private static final String FREE_EXPIRED = """
            local freed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 1000)
            for _, member in ipairs(freed) do
              redis.call('ZREM', KEYS[2], member)
              redis.call('ZADD', KEYS[1], ARGV[1], member)
            end
            """;

    // KEYS: due, claimed. ARGV: now. Returns {count}.
    private static final LuaScript RELEASE_EXPIRED = new LuaScript("release-expired", FREE_EXPIRED + """
            return {#freed}
            """);

    // KEYS: due, claimed, bodies. ARGV: now, after ('' for the first), until, overdue until ('' for
    // none), limit. FREE_EXPIRED, then the due reads of scanAll, with the bodies, and the count.
    // Returns {freed, count, name, body, name, body, ...}.
    private static final LuaScript SCAN = new LuaScript("scan", FREE_EXPIRED + """
            local limit = tonumber(ARGV[5])
            local from = '-inf'
            if ARGV[2] ~= '' then from = '(' .. ARGV[2] end
            local names = redis.call('ZRANGEBYSCORE', KEYS[1], from, ARGV[3], 'LIMIT', 0, limit)
            if ARGV[4] ~= '' then
              local upTo = ARGV[4]
              if #freed > 0 then upTo = ARGV[1] end
              for _, name in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', upTo, 'LIMIT', 0, limit)) do
                names[#names + 1] = name
              end
            end
            local out = {#freed, redis.call('HLEN', KEYS[3])}
            for _, name in ipairs(names) do
              local body = redis.call('HGET', KEYS[3], name)
              if body then
                out[#out + 1] = name
                out[#out + 1] = body
              end
            end
            return out
            """);

    // KEYS: claimed, bodies, user. ARGV: member.
    private static final LuaScript DONE = new LuaScript("done", """
            redis.call('ZREM', KEYS[1], ARGV[1])
            if redis.call('HDEL', KEYS[2], ARGV[1]) == 1 then redis.call('HINCRBY', KEYS[3], 'c', -1) end
            return {0}
            """);

    private final RedisTemplate<String, byte[]> redis;
    private final int buckets;

    /**
     * @param buckets how many buckets, 1 to 16384 (more buckets: smaller per-user scans, more keys to
     *                read per scan)
     */
    public RedisScheduledStore(RedisTemplate<String, byte[]> redis, int buckets) {
        if (buckets < 1 || buckets > 16384) {
            throw new IllegalArgumentException("buckets: " + buckets + " (expected: 1 to 16384)");
        }
        this.redis = redis;
        this.buckets = buckets;
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

    @Override
    public List<Registration> registerAll(List<Draft> drafts, int maxPerUser) {
        byte[] max = RedisBytes.of(maxPerUser);
        List<LuaScript.Call> calls = new ArrayList<>(drafts.size());
        for (Draft d : drafts) {
            int b = bucketOf(d.user());
            calls.add(new LuaScript.Call(
                    keys(RedisKeys.scheduledDue(b), RedisKeys.scheduledBodies(b), RedisKeys.scheduledUser(b, d.user())),
                    List.of(ScheduledLayout.name(d.user(), d.draft().getId()), max, RedisBytes.of(d.draft().getDueAtMillis()),
                            ScheduledLayout.draft(d.draft()))));
        }
        List<Object> replies = REGISTER.runAll(redis, calls);
        List<Registration> registrations = new ArrayList<>(replies.size());
        for (int i = 0; i < replies.size(); i++) {
            if (replies.get(i) instanceof RuntimeException e) {
                registrations.add(new Registration.Failed(e));
                continue;
            }
            List<?> reply = (List<?>) replies.get(i);
            String id = drafts.get(i).draft().getId();
            registrations.add(switch ((int) RedisBytes.number(reply.get(0))) {
                case 0 -> new Registration.Created(ScheduledLayout.parse((byte[]) reply.get(1), id));
                case 1 -> new Registration.Existing(ScheduledLayout.parse((byte[]) reply.get(1), id));
                default -> new Registration.TooMany(maxPerUser);
            });
        }
        return registrations;
    }

    @Override
    public List<Scheduled> list(String user) {
        int b = bucketOf(user);
        byte[] key = RedisBytes.of(RedisKeys.scheduledBodies(b));
        String prefix = user + '\n';
        List<Scheduled> messages = new ArrayList<>();
        // The pattern is a filter on Redis' side; each name's user is checked here too.
        redis.execute((RedisCallback<Void>) c -> {
            ScanOptions options = ScanOptions.scanOptions().match(globEscape(prefix) + "*").count(1000).build();
            try (Cursor<Map.Entry<byte[], byte[]>> cursor = c.hashCommands().hScan(key, options)) {
                while (cursor.hasNext()) {
                    Map.Entry<byte[], byte[]> field = cursor.next();
                    if (ScheduledLayout.user(field.getKey()).equals(user)) {
                        messages.add(ScheduledLayout.parse(field.getValue(), ScheduledLayout.id(field.getKey())));
                    }
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

    @Override
    public Optional<Scheduled> edit(String user, String id, String text, long dueAtMillis, long requestedMillis) {
        int b = bucketOf(user);
        byte[] member = ScheduledLayout.name(user, id);
        for (int attempt = 0; attempt < 10; attempt++) {
            byte[] current = redis.execute((RedisCallback<byte[]>) c ->
                    c.hashCommands().hGet(RedisBytes.of(RedisKeys.scheduledBodies(b)), member));
            if (current == null) {
                return Optional.empty();
            }
            Scheduled.Builder changed = ScheduledLayout.parse(current, id).toBuilder();
            if (!text.isEmpty()) {
                changed.setText(text);
            }
            if (dueAtMillis != 0) {
                changed.setDueAtMillis(dueAtMillis).setRequestedMillis(requestedMillis);
            }
            Scheduled updated = changed.build();
            List<?> reply = (List<?>) EDIT.run(redis,
                    keys(RedisKeys.scheduledDue(b), RedisKeys.scheduledClaimed(b), RedisKeys.scheduledBodies(b)),
                    List.of(member, current, ScheduledLayout.body(updated),
                            dueAtMillis == 0 ? new byte[0] : RedisBytes.of(dueAtMillis)));
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

    @Override
    public Optional<Scheduled> cancel(String user, String id) {
        int b = bucketOf(user);
        List<?> reply = (List<?>) CANCEL.run(redis,
                keys(RedisKeys.scheduledDue(b), RedisKeys.scheduledClaimed(b), RedisKeys.scheduledBodies(b),
                        RedisKeys.scheduledUser(b, user)),
                List.of(ScheduledLayout.name(user, id)));
        return RedisBytes.number(reply.get(0)) == 0
                ? Optional.of(ScheduledLayout.parse((byte[]) reply.get(1), id)) : Optional.empty();
    }

    @Override
    public List<Claim> claimAll(List<Ref> messages, long nowMillis, long leaseUntilMillis) {
        byte[] now = RedisBytes.of(nowMillis);
        byte[] leaseUntil = RedisBytes.of(leaseUntilMillis);
        List<LuaScript.Call> calls = new ArrayList<>(messages.size());
        for (Ref ref : messages) {
            int b = bucketOf(ref.user());
            calls.add(new LuaScript.Call(
                    keys(RedisKeys.scheduledDue(b), RedisKeys.scheduledClaimed(b), RedisKeys.scheduledBodies(b)),
                    List.of(ScheduledLayout.name(ref.user(), ref.id()), now, leaseUntil)));
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
                case 0 -> new Claim.Claimed(ScheduledLayout.parse((byte[]) reply.get(1), id));
                case 1 -> new Claim.NotDue(ScheduledLayout.parse((byte[]) reply.get(1), id));
                default -> new Claim.Gone();
            });
        }
        return claims;
    }

    @Override
    public List<Entry> due(int bucket, long afterMillis, long untilMillis, int limit) {
        byte[] dueKey = RedisBytes.of(RedisKeys.scheduledDue(bucket));
        byte[] bodiesKey = RedisBytes.of(RedisKeys.scheduledBodies(bucket));
        return redis.execute((RedisCallback<List<Entry>>) c -> {
            java.util.Set<byte[]> members = c.zSetCommands().zRangeByScore(dueKey,
                    Range.of(afterMillis == Long.MIN_VALUE ? Range.Bound.unbounded()
                            : Range.Bound.exclusive((double) afterMillis), Range.Bound.inclusive((double) untilMillis)),
                    Limit.limit().count(limit));
            List<Entry> entries = new ArrayList<>();
            if (members == null || members.isEmpty()) {
                return entries;
            }
            List<byte[]> names = new ArrayList<>(members);
            List<byte[]> values = c.hashCommands().hMGet(bodiesKey, names.toArray(byte[][]::new));
            for (int i = 0; i < names.size(); i++) {
                byte[] value = values == null ? null : values.get(i);
                if (value != null) {
                    byte[] name = names.get(i);
                    entries.add(new Entry(ScheduledLayout.user(name), ScheduledLayout.parse(value, ScheduledLayout.id(name))));
                }
            }
            return entries;
        });
    }

    @Override
    public int releaseExpiredClaims(int bucket, long nowMillis) {
        List<?> reply = (List<?>) RELEASE_EXPIRED.run(redis,
                keys(RedisKeys.scheduledDue(bucket), RedisKeys.scheduledClaimed(bucket)), List.of(RedisBytes.of(nowMillis)));
        return (int) RedisBytes.number(reply.get(0));
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
            calls.add(new LuaScript.Call(
                    keys(RedisKeys.scheduledDue(b), RedisKeys.scheduledClaimed(b), RedisKeys.scheduledBodies(b)), args));
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
            for (int i = 2; i + 1 < values.size(); i += 2) {
                byte[] name = (byte[]) values.get(i);
                entries.add(new Entry(ScheduledLayout.user(name),
                        ScheduledLayout.parse((byte[]) values.get(i + 1), ScheduledLayout.id(name))));
            }
        }
        return new Scan(freed, entries, stored);
    }

    @Override
    public int doneAll(List<Ref> messages) {
        List<LuaScript.Call> calls = new ArrayList<>(messages.size());
        for (Ref ref : messages) {
            int b = bucketOf(ref.user());
            calls.add(new LuaScript.Call(
                    keys(RedisKeys.scheduledClaimed(b), RedisKeys.scheduledBodies(b), RedisKeys.scheduledUser(b, ref.user())),
                    List.of(ScheduledLayout.name(ref.user(), ref.id()))));
        }
        int failed = 0;
        List<Object> replies = DONE.runAll(redis, calls);
        for (int i = 0; i < replies.size(); i++) {
            if (replies.get(i) instanceof RuntimeException e) {
                if (failed++ == 0) {
                    log.warn("Could not forget sent scheduled message {} of {}: {}", messages.get(i).id(),
                            messages.get(i).user(), e.toString());
                }
            }
        }
        return failed;
    }

    @Override
    public long count() {
        List<Object> counts = redis.executePipelined((RedisCallback<Object>) c -> {
            for (int b = 0; b < buckets; b++) {
                c.hashCommands().hLen(RedisBytes.of(RedisKeys.scheduledBodies(b)));
            }
            return null;
        });
        long total = 0;
        for (Object count : counts) {
            total += count instanceof Long n ? n : 0;
        }
        return total;
    }
}
