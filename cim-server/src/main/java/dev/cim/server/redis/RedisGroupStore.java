package dev.cim.server.redis;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.server.store.GroupStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.data.redis.core.RedisTemplate;

/**
 * Groups in Redis ({@link RedisKeys#groupMeta} and the keys beside it, one hash tag per group): each
 * change of a group is one Lua script over that group's keys, so membership, the owner and the log
 * never disagree. Two things live elsewhere and are written around the script, in an order that
 * keeps them safe without a cross-slot step: the claim on the name's look-alike skeleton
 * ({@link RedisKeys#groupNameOwner}, taken before a group is made, given back after it ends), and
 * each user's set of groups ({@link RedisKeys#groupsOf}: added to before a user joins, taken from
 * after they leave, so it holds every group they are in). Beside that set, on the user's slot, are
 * the user's joins under way ({@link RedisKeys#groupsJoining}), so that the limit of groups per user
 * is counted and a place taken in one script ({@link #reserve}).
 *
 * <p>Its length is its Lua scripts, one per atomic step of the {@link GroupStore} contract, each with
 * a comment on its keys and answers.
 */
public final class RedisGroupStore implements GroupStore {

    // Returns the group's info: {owner, open, members, created, version}.
    private static final String INFO = """
            local function info()
              local m = redis.call('HMGET', KEYS[1], 'owner', 'open', 'created', 'version')
              return {m[1], tonumber(m[2]), redis.call('HLEN', KEYS[2]), tonumber(m[3]), tonumber(m[4])}
            end
            """;

    // KEYS: meta, members, cursors. ARGV: owner, open, now, member... Returns {0, info...} made,
    // {1} exists.
    private static final LuaScript CREATE = new LuaScript("group-create", INFO + """
            if redis.call('EXISTS', KEYS[1]) == 1 then return {1} end
            redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'open', ARGV[2], 'created', ARGV[3], 'version', 1,
                'seq', 0, 'last', '0-0')
            for i = 4, #ARGV do
              if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 0 then
                redis.call('HSET', KEYS[2], ARGV[i], redis.call('HINCRBY', KEYS[1], 'seq', 1))
                redis.call('HSET', KEYS[3], ARGV[i], '0-0')
              end
            end
            local out = info()
            table.insert(out, 1, 0)
            return out
            """);

    // KEYS: meta, members, cursors. ARGV: by, max members, user... Returns {0, info..., added...},
    // {1} no group, {2, reason}.
    private static final LuaScript ADD = new LuaScript("group-add", INFO + """
            if redis.call('EXISTS', KEYS[1]) == 0 then return {1} end
            local by = ARGV[1]
            if redis.call('HEXISTS', KEYS[2], by) == 0 then
              local open = redis.call('HGET', KEYS[1], 'open') == '1'
              if not (open and #ARGV == 3 and ARGV[3] == by) then
                return {2, open and 'you can join an open group, not add others to it: join it first'
                    or 'you are not a member, and the group is not open: ask a member to invite you'}
              end
            end
            local new = {}
            for i = 3, #ARGV do
              if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 0 then table.insert(new, ARGV[i]) end
            end
            local count = redis.call('HLEN', KEYS[2])
            if count + #new > tonumber(ARGV[2]) then
              return {2, 'the group has ' .. count .. ' members; the most is ' .. ARGV[2]}
            end
            local last = redis.call('HGET', KEYS[1], 'last')
            for _, user in ipairs(new) do
              redis.call('HSET', KEYS[2], user, redis.call('HINCRBY', KEYS[1], 'seq', 1))
              redis.call('HSET', KEYS[3], user, last)
            end
            if #new > 0 then redis.call('HINCRBY', KEYS[1], 'version', 1) end
            local out = info()
            table.insert(out, 1, 0)
            for _, user in ipairs(new) do table.insert(out, user) end
            return out
            """);

    // KEYS: meta, members, cursors, log. ARGV: by, user... Returns {0, info..., removed...}, {1} no
    // group, {2, reason}, {3, removed...} the group ended.
    private static final LuaScript REMOVE = new LuaScript("group-remove", INFO + """
            if redis.call('EXISTS', KEYS[1]) == 0 then return {1} end
            local by = ARGV[1]
            local owner = redis.call('HGET', KEYS[1], 'owner')
            if by ~= owner and not (#ARGV == 2 and ARGV[2] == by) then
              return {2, 'only the group\\'s owner (' .. owner .. ') may remove others'}
            end
            local removed = {}
            for i = 2, #ARGV do
              if redis.call('HDEL', KEYS[2], ARGV[i]) == 1 then
                redis.call('HDEL', KEYS[3], ARGV[i])
                table.insert(removed, ARGV[i])
              end
            end
            if redis.call('HLEN', KEYS[2]) == 0 then
              redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
              local out = {3}
              for _, user in ipairs(removed) do table.insert(out, user) end
              return out
            end
            if redis.call('HEXISTS', KEYS[2], owner) == 0 then
              local members = redis.call('HGETALL', KEYS[2])
              local next, lowest = nil, nil
              for i = 1, #members, 2 do
                local seq = tonumber(members[i + 1])
                if lowest == nil or seq < lowest then next, lowest = members[i], seq end
              end
              redis.call('HSET', KEYS[1], 'owner', next)
            end
            if #removed > 0 then redis.call('HINCRBY', KEYS[1], 'version', 1) end
            local out = info()
            table.insert(out, 1, 0)
            for _, user in ipairs(removed) do table.insert(out, user) end
            return out
            """);

    // KEYS: meta, members, log. ARGV: sender, chat, max entries, min id to keep, ttl ms. Returns
    // {0, position, previous, version}, {1} not a member.
    private static final LuaScript POST = new LuaScript("group-post", """
            if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return {1} end
            local previous = redis.call('HGET', KEYS[1], 'last')
            local id = redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[3], '*', 'c', ARGV[2])
            redis.call('XTRIM', KEYS[3], 'MINID', '~', ARGV[4])
            redis.call('PEXPIRE', KEYS[3], ARGV[5])
            redis.call('HSET', KEYS[1], 'last', id)
            return {0, id, previous, tonumber(redis.call('HGET', KEYS[1], 'version'))}
            """);

    // KEYS: cursors, members. ARGV: user, position, user, position... Moves each member's cursor
    // forward only.
    private static final LuaScript ADVANCE = new LuaScript("group-advance", """
            local function older(a, b)
              local am, as = string.match(a, '^(%d+)-(%d+)$')
              local bm, bs = string.match(b, '^(%d+)-(%d+)$')
              am, as, bm, bs = tonumber(am), tonumber(as), tonumber(bm), tonumber(bs)
              return am < bm or (am == bm and as < bs)
            end
            for i = 1, #ARGV, 2 do
              if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 1 then
                local now = redis.call('HGET', KEYS[1], ARGV[i]) or '0-0'
                if older(now, ARGV[i + 1]) then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
              end
            end
            return 0
            """);

    // Redis's own clock in epoch ms, the same for every node: when a place in a user's joins was taken.
    private static final String NOW = """
            local function now()
              local t = redis.call('TIME')
              return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            end
            """;

    // KEYS: the user's groups, their joins. ARGV: group, max groups, keep ms. Returns 1 placed, 0 full.
    // Counts the groups and the joins under way of others not among them; places older than keep
    // (taken by a process that died) are dropped first.
    private static final LuaScript RESERVE = new LuaScript("group-reserve", NOW + """
            local now = now()
            redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[3]))
            if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 0 and not redis.call('ZSCORE', KEYS[2], ARGV[1]) then
              local count = redis.call('SCARD', KEYS[1])
              for _, g in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
                if redis.call('SISMEMBER', KEYS[1], g) == 0 then count = count + 1 end
              end
              if count >= tonumber(ARGV[2]) then return 0 end
            end
            redis.call('ZADD', KEYS[2], now, ARGV[1])
            redis.call('PEXPIRE', KEYS[2], ARGV[3])
            return 1
            """);

    // KEYS: the user's groups, their joins. ARGV: group. Unless a join of it is under way, moves the
    // group from the user's groups to their joins, where it still counts until the caller has looked
    // at the group again (a join may have ended in between); returns 1 when moved.
    private static final LuaScript FORGET = new LuaScript("group-forget", NOW + """
            if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
            if redis.call('SREM', KEYS[1], ARGV[1]) == 0 then return 0 end
            redis.call('ZADD', KEYS[2], now(), ARGV[1])
            redis.call('PEXPIRE', KEYS[2], ARGV[2])
            return 1
            """);

    /** How long a place taken by {@link #reserve} is kept: far longer than any join takes. */
    private static final Duration PLACE_KEPT = Duration.ofMinutes(1);

    private final RedisTemplate<String, byte[]> redis;
    private final ReplicaAcks acks;

    public RedisGroupStore(RedisTemplate<String, byte[]> redis) {
        this(redis, ReplicaAcks.NONE);
    }

    /**
     * @param acks what a post waits for before it counts as posted (replicas having it)
     */
    public RedisGroupStore(RedisTemplate<String, byte[]> redis, ReplicaAcks acks) {
        this.redis = redis;
        this.acks = acks;
    }

    private static List<byte[]> keys(String name, String... suffixes) {
        List<byte[]> keys = new ArrayList<>(suffixes.length);
        for (String suffix : suffixes) {
            keys.add(RedisBytes.of(switch (suffix) {
                case "meta" -> RedisKeys.groupMeta(name);
                case "members" -> RedisKeys.groupMembers(name);
                case "cursors" -> RedisKeys.groupCursors(name);
                case "log" -> RedisKeys.log(dev.cim.server.store.Conversation.group(name));
                default -> throw new IllegalArgumentException(suffix);
            }));
        }
        return keys;
    }

    /** The info in {@code reply} from index {@code from} (five values), for group {@code name}. */
    private static Info info(String name, List<?> reply, int from) {
        return new Info(name, RedisBytes.text(reply.get(from)), RedisBytes.number(reply.get(from + 1)) == 1,
                (int) RedisBytes.number(reply.get(from + 2)), RedisBytes.number(reply.get(from + 3)),
                RedisBytes.number(reply.get(from + 4)));
    }

    private static List<String> texts(List<?> reply, int from) {
        List<String> texts = new ArrayList<>(Math.max(0, reply.size() - from));
        for (int i = from; i < reply.size(); i++) {
            texts.add(RedisBytes.text(reply.get(i)));
        }
        return texts;
    }

    @Override
    public Creation create(String name, String skeleton, String owner, boolean open, Collection<String> members,
            long nowMillis) {
        Set<String> everyone = new LinkedHashSet<>();
        everyone.add(owner);
        everyone.addAll(members);
        try {
            return createNow(name, skeleton, owner, open, everyone, nowMillis);
        } finally {
            everyone.forEach(user -> release(user, name));
        }
    }

    private Creation createNow(String name, String skeleton, String owner, boolean open, Set<String> everyone,
            long nowMillis) {
        String claim = RedisKeys.groupNameOwner(skeleton);
        Boolean claimed = redis.opsForValue().setIfAbsent(claim, RedisBytes.of(name));
        if (!Boolean.TRUE.equals(claimed)) {
            byte[] existing = redis.opsForValue().get(claim);
            String other = existing == null ? name : RedisBytes.text(existing);
            if (!other.equals(name) || info(name).isPresent()) {
                return new Creation.Taken(other);
            }
            // Ours, left by a creation that died before its group was made: make it now.
        }
        everyone.forEach(user -> redis.opsForSet().add(RedisKeys.groupsOf(user), RedisBytes.of(name)));
        List<byte[]> args = new ArrayList<>();
        args.add(RedisBytes.of(owner));
        args.add(RedisBytes.of(open ? 1 : 0));
        args.add(RedisBytes.of(nowMillis));
        everyone.forEach(user -> args.add(RedisBytes.of(user)));
        List<?> reply = (List<?>) CREATE.run(redis, keys(name, "meta", "members", "cursors"), args);
        if (RedisBytes.number(reply.get(0)) == 1) {
            forgetUnlessMember(everyone, name);
            return new Creation.Taken(name);
        }
        return new Creation.Created(info(name, reply, 1));
    }

    @Override
    public Optional<Info> info(String name) {
        Map<Object, Object> meta = redis.opsForHash().entries(RedisKeys.groupMeta(name));
        if (meta.isEmpty()) {
            return Optional.empty();
        }
        Long members = redis.opsForHash().size(RedisKeys.groupMembers(name));
        return Optional.of(new Info(name, text(meta, "owner"), "1".equals(text(meta, "open")),
                members == null ? 0 : members.intValue(), Long.parseLong(text(meta, "created")),
                Long.parseLong(text(meta, "version"))));
    }

    private static String text(Map<Object, Object> hash, String field) {
        for (Map.Entry<Object, Object> e : hash.entrySet()) {
            if (field.equals(key(e.getKey()))) {
                return key(e.getValue());
            }
        }
        return "";
    }

    private static String key(Object value) {
        return value instanceof byte[] bytes ? RedisBytes.text(bytes) : String.valueOf(value);
    }

    @Override
    public Change add(String name, String by, Collection<String> users, int maxMembers) {
        try {
            return addNow(name, by, users, maxMembers);
        } finally {
            users.forEach(user -> release(user, name));
        }
    }

    private Change addNow(String name, String by, Collection<String> users, int maxMembers) {
        users.forEach(user -> redis.opsForSet().add(RedisKeys.groupsOf(user), RedisBytes.of(name)));
        List<byte[]> args = new ArrayList<>(users.size() + 2);
        args.add(RedisBytes.of(by));
        args.add(RedisBytes.of(maxMembers));
        users.forEach(user -> args.add(RedisBytes.of(user)));
        List<?> reply = (List<?>) ADD.run(redis, keys(name, "meta", "members", "cursors"), args);
        Change change = change(name, reply);
        if (!(change instanceof Change.Done)) {
            forgetUnlessMember(users, name);
        }
        return change;
    }

    /**
     * After a failed creation or addition: the sets of those who are not members must not say they
     * are (those who are keep the name, which they had already).
     */
    private void forgetUnlessMember(Collection<String> users, String name) {
        for (String user : users) {
            if (!isMember(name, user)) {
                redis.opsForSet().remove(RedisKeys.groupsOf(user), RedisBytes.of(name));
            }
        }
    }

    @Override
    public boolean reserve(String user, String name, int maxGroups) {
        if (maxGroups < 1) {
            throw new IllegalArgumentException("maxGroups: " + maxGroups + " (expected: >= 1)");
        }
        if (place(user, name, maxGroups)) {
            return true;
        }
        // Full. The user's set may name groups they are not in: left by a process that died between a
        // set's step and the group's (the group's members are the truth). Take those out, except any
        // being joined right now, and count again. A group is counted among the joins while it is
        // looked at again, so that no count in between finds the user with a group too few.
        boolean forgot = false;
        for (String group : groupsOf(user)) {
            if (!isMember(group, user)
                    && answer(FORGET, user, List.of(RedisBytes.of(group), RedisBytes.of(PLACE_KEPT.toMillis()))) == 1) {
                if (isMember(group, user)) { // joined between the two looks: the set must name it again
                    redis.opsForSet().add(RedisKeys.groupsOf(user), RedisBytes.of(group));
                } else {
                    forgot = true;
                }
                release(user, group);
            }
        }
        return forgot && place(user, name, maxGroups);
    }

    private boolean place(String user, String name, int maxGroups) {
        return answer(RESERVE, user,
                List.of(RedisBytes.of(name), RedisBytes.of(maxGroups), RedisBytes.of(PLACE_KEPT.toMillis()))) == 1;
    }

    /** Runs {@code script} over {@code user}'s groups and joins; its one number. */
    private long answer(LuaScript script, String user, List<byte[]> args) {
        List<byte[]> keys = List.of(RedisBytes.of(RedisKeys.groupsOf(user)),
                RedisBytes.of(RedisKeys.groupsJoining(user)));
        return RedisBytes.number(((List<?>) script.run(redis, keys, args)).get(0));
    }

    @Override
    public void release(String user, String name) {
        redis.opsForZSet().remove(RedisKeys.groupsJoining(user), RedisBytes.of(name));
    }

    @Override
    public Change remove(String name, String by, Collection<String> users) {
        List<byte[]> args = new ArrayList<>(users.size() + 1);
        args.add(RedisBytes.of(by));
        users.forEach(user -> args.add(RedisBytes.of(user)));
        List<?> reply = (List<?>) REMOVE.run(redis, keys(name, "meta", "members", "cursors", "log"), args);
        int code = (int) RedisBytes.number(reply.get(0));
        if (code == 3) {
            List<String> removed = texts(reply, 1);
            removed.forEach(user -> redis.opsForSet().remove(RedisKeys.groupsOf(user), RedisBytes.of(name)));
            redis.delete(RedisKeys.groupNameOwner(dev.cim.common.protocol.UserNames.skeleton(name)));
            return new Change.Done(new Info(name, "", false, 0, 0, 0), removed);
        }
        Change change = change(name, reply);
        if (change instanceof Change.Done done) {
            done.changed().forEach(user -> redis.opsForSet().remove(RedisKeys.groupsOf(user), RedisBytes.of(name)));
        }
        return change;
    }

    private static Change change(String name, List<?> reply) {
        return switch ((int) RedisBytes.number(reply.get(0))) {
            case 0 -> new Change.Done(info(name, reply, 1), texts(reply, 6));
            case 1 -> new Change.NoGroup();
            default -> new Change.Refused(RedisBytes.text(reply.get(1)));
        };
    }

    @Override
    public Optional<List<String>> members(String name) {
        if (!Boolean.TRUE.equals(redis.hasKey(RedisKeys.groupMeta(name)))) {
            return Optional.empty();
        }
        Set<Object> keys = redis.opsForHash().keys(RedisKeys.groupMembers(name));
        TreeSet<String> sorted = new TreeSet<>();
        keys.forEach(k -> sorted.add(key(k)));
        return Optional.of(List.copyOf(sorted));
    }

    @Override
    public boolean isMember(String name, String user) {
        return redis.opsForHash().hasKey(RedisKeys.groupMembers(name), user);
    }

    @Override
    public Set<String> groupsOf(String user) {
        Set<byte[]> names = redis.opsForSet().members(RedisKeys.groupsOf(user));
        Set<String> groups = new HashSet<>();
        if (names != null) {
            names.forEach(n -> groups.add(RedisBytes.text(n)));
        }
        return groups;
    }

    @Override
    public Posting post(String name, Chat chat, long nowMillis, Duration retention, long maxEntries) {
        long ttl = Math.max(1, retention.toMillis());
        List<?> reply = (List<?>) POST.run(redis, keys(name, "meta", "members", "log"),
                List.of(RedisBytes.of(chat.getSender()), chat.toByteArray(), RedisBytes.of(maxEntries),
                        RedisBytes.of((nowMillis - ttl) + "-0"), RedisBytes.of(ttl)));
        if (RedisBytes.number(reply.get(0)) != 0) {
            return new Posting.NotMember();
        }
        acks.await(RedisBytes.of(RedisKeys.groupMeta(name))); // the log shares its slot
        String previous = RedisBytes.text(reply.get(2));
        return new Posting.Posted(new Post(RedisBytes.text(reply.get(1)), "0-0".equals(previous) ? "" : previous,
                RedisBytes.number(reply.get(3))));
    }

    @Override
    public Optional<String> last(String name) {
        Object last = redis.opsForHash().get(RedisKeys.groupMeta(name), "last");
        String position = last == null ? "" : key(last);
        return position.isEmpty() || "0-0".equals(position) ? Optional.empty() : Optional.of(position);
    }

    @Override
    public Optional<String> cursor(String name, String user) {
        Object cursor = redis.opsForHash().get(RedisKeys.groupCursors(name), user);
        String position = cursor == null ? "" : key(cursor);
        return position.isEmpty() || "0-0".equals(position) ? Optional.empty() : Optional.of(position);
    }

    @Override
    public void advance(String name, Map<String, String> cursors) {
        if (cursors.isEmpty()) {
            return;
        }
        List<byte[]> args = new ArrayList<>(cursors.size() * 2);
        cursors.forEach((user, position) -> {
            args.add(RedisBytes.of(user));
            args.add(RedisBytes.of(position));
        });
        ADVANCE.run(redis, keys(name, "cursors", "members"), args);
    }
}
