package dev.cim.server.redis;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.server.store.Conversation;
import dev.cim.server.store.ConversationLog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.stream.ByteRecord;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.ZSetOperations;

/**
 * Conversation logs as Redis streams ({@link RedisKeys#log}), one per conversation, each entry one
 * field {@code c}, the serialized {@code Chat} (as in an inbox): a message of a 10,000-member group is
 * kept once. Stream ids are the positions, and grow with time, so a log is trimmed by id to the
 * history's retention, and by length to its size limit, as messages are appended. A batch of
 * messages is written with one script call for their logs and one for their users' indexes of
 * conversations (one per hash slot on a Redis Cluster): Redis's cost is mostly per call.
 *
 * <p>A message's position is its sent time ({@code XADD <ms>-*}), not the time of its write: the
 * writer gathers a batch for a while ({@code HistoryWriter}), and a group's post, written at once,
 * must not look older than a private message sent before it (search merges conversations by
 * position). A log that already holds a later position (another node's clock ahead) takes the
 * message at the current time instead, as does a Redis older than 7.
 *
 * <p>And per command. Each message is one {@code XADD} (trimmed to the size limit as it goes); what
 * only keeps a log or an index fresh is done once per key a minute ({@link FreshWrites}): a log's
 * trim to the retention and its time to live, a user's index entry for the conversation with its
 * time, and the index's trim and time to live. So a log lives up to a minute past the retention
 * after its last message, and the index orders a user's conversations by their last message to
 * within a minute. A message in a conversation new to this server is an {@code XADD} and a
 * {@code ZADD} for each of its two users, and for a new log its trim and time to live.
 *
 * <h3>Search</h3>
 * A bounded scan in Redis, one Lua call per conversation and step: it reads back from a position at
 * most {@code maxRead} entries, takes each one's text out of its serialized {@code Chat} (field 4, a
 * few lines of protobuf varint reading), lower-cases its ASCII letters and keeps it when every word
 * stands in it as a word; only the hits cross the network. A step of 10,000 entries of 100
 * characters keeps Redis busy for a few milliseconds, so the caller bounds a search by steps.
 */
public final class RedisConversationLog implements ConversationLog {

    private static final Logger log = LoggerFactory.getLogger(RedisConversationLog.class);

    /** How long a log's trim and time to live, and an index entry, stay fresh once written. */
    static final long FRESH_MILLIS = 60_000;

    // KEYS: logs. ARGV: min id to keep, max entries, ttl ms, then for each log: n, refresh (1 or 0),
    // then n pairs: id ('<sent ms>-*', or '*'), chat. Appends, trimming to max entries, each at its
    // sent time, or now when the log holds a later one (or Redis is older than 7); a log to refresh is
    // trimmed to the min id and kept for ttl. Returns how many were appended.
    private static final LuaScript APPEND = new LuaScript("log-append", """
            local a, appended = 4, 0
            for k = 1, #KEYS do
              local n = tonumber(ARGV[a])
              for i = a + 2, a + 2 * n, 2 do
                local added = redis.pcall('XADD', KEYS[k], 'MAXLEN', '~', ARGV[2], ARGV[i], 'c', ARGV[i + 1])
                if type(added) == 'table' and added.err then
                  redis.call('XADD', KEYS[k], 'MAXLEN', '~', ARGV[2], '*', 'c', ARGV[i + 1])
                end
              end
              if ARGV[a + 1] == '1' then
                redis.call('XTRIM', KEYS[k], 'MINID', '~', ARGV[1])
                redis.call('PEXPIRE', KEYS[k], ARGV[3])
              end
              a = a + 2 * n + 2
              appended = appended + n
            end
            return appended
            """);

    // KEYS: users' conversation indexes. ARGV: now ms, ttl ms, the index's ttl ms, then for each
    // index: n, refresh (1 or 0), conversation, ms (n pairs). An index to refresh loses the
    // conversations older than the ttl and is kept for the index's ttl.
    private static final LuaScript TOUCH = new LuaScript("log-touch", """
            local a = 4
            local oldest = '(' .. (tonumber(ARGV[1]) - tonumber(ARGV[2]))
            for k = 1, #KEYS do
              local n = tonumber(ARGV[a])
              for i = a + 2, a + 2 * n, 2 do
                redis.call('ZADD', KEYS[k], 'GT', ARGV[i + 1], ARGV[i])
              end
              if ARGV[a + 1] == '1' then
                redis.call('ZREMRANGEBYSCORE', KEYS[k], '-inf', oldest)
                redis.call('PEXPIRE', KEYS[k], ARGV[3])
              end
              a = a + 2 * n + 2
            end
            return 0
            """);

    // KEYS: log. ARGV: before ('' for the newest), max read, max hits, word... Returns
    // {stopped at ('' when it read to the first entry), stopped at ms, id, chat, id, chat...}.
    private static final LuaScript SEARCH = new LuaScript("log-search", """
            local function varint(s, pos)
              local value, scale = 0, 1
              while true do
                local b = string.byte(s, pos)
                if b == nil then return nil, pos end
                pos = pos + 1
                value = value + (b % 128) * scale
                if b < 128 then return value, pos end
                scale = scale * 128
              end
            end
            local function text(chat)
              local pos, n = 1, #chat
              while pos <= n do
                local tag
                tag, pos = varint(chat, pos)
                if tag == nil then return '' end
                local field, wire = math.floor(tag / 8), tag % 8
                if wire == 2 then
                  local len
                  len, pos = varint(chat, pos)
                  if len == nil then return '' end
                  if field == 4 then return string.sub(chat, pos, pos + len - 1) end
                  pos = pos + len
                elseif wire == 0 then
                  local _
                  _, pos = varint(chat, pos)
                elseif wire == 1 then pos = pos + 8
                elseif wire == 5 then pos = pos + 4
                else return '' end
              end
              return ''
            end
            local function holds(hay, word)
              local from = 1
              while true do
                local s, e = string.find(hay, word, from, true)
                if s == nil then return false end
                local before = s > 1 and string.sub(hay, s - 1, s - 1) or ' '
                local after = e < #hay and string.sub(hay, e + 1, e + 1) or ' '
                if not string.find(before, '%w') and not string.find(after, '%w') then return true end
                from = s + 1
              end
            end
            local top = ARGV[1] == '' and '+' or ('(' .. ARGV[1])
            local entries = redis.call('XREVRANGE', KEYS[1], top, '-', 'COUNT', tonumber(ARGV[2]))
            local out = {'', 0}
            local hits = 0
            for _, entry in ipairs(entries) do
              local chat = entry[2][2]
              local lower = string.lower(text(chat))
              local all = true
              for w = 4, #ARGV do
                if not holds(lower, ARGV[w]) then all = false break end
              end
              if all then
                table.insert(out, entry[1])
                table.insert(out, chat)
                hits = hits + 1
              end
              out[1] = entry[1]
              if hits >= tonumber(ARGV[3]) then break end
            end
            if #entries < tonumber(ARGV[2]) and hits < tonumber(ARGV[3]) then out[1] = '' end
            if out[1] ~= '' then out[2] = tonumber(string.match(out[1], '^(%d+)')) end
            return out
            """);

    private final RedisTemplate<String, byte[]> redis;
    private final SlotGroups slots;
    private final FreshWrites fresh;

    public RedisConversationLog(RedisTemplate<String, byte[]> redis) {
        this(redis, new FreshWrites(FRESH_MILLIS));
    }

    RedisConversationLog(RedisTemplate<String, byte[]> redis, FreshWrites fresh) {
        this.redis = redis;
        this.slots = new SlotGroups(redis.getRequiredConnectionFactory());
        this.fresh = fresh;
    }

    @Override
    public void append(List<Chat> chats, long now, Duration retention, long maxEntries) {
        if (chats.isEmpty()) {
            return;
        }
        long ttl = Math.max(1, retention.toMillis());
        long keyTtl = ttl + fresh.windowMillis(); // refreshed up to a window late: never gone early
        long keepAfterMillis = now - ttl;
        Map<String, List<Chat>> byLog = new LinkedHashMap<>();
        Map<String, Map<String, Long>> touched = new LinkedHashMap<>();
        for (Chat chat : chats) {
            Conversation conversation = Conversation.of(chat);
            if (conversation == null || conversation.isGroup()) {
                throw new IllegalArgumentException("not a private message: to " + chat.getRecipient()
                        + " (expected: a user; a group's log is written by its post)");
            }
            byLog.computeIfAbsent(RedisKeys.log(conversation), c -> new ArrayList<>()).add(chat);
            for (String user : Set.of(chat.getSender(), chat.getRecipient())) {
                String index = RedisKeys.conversationsOf(user);
                if (!fresh.fresh(index, conversation.id(), now)) {
                    touched.computeIfAbsent(index, u -> new LinkedHashMap<>()).merge(conversation.id(),
                            chat.getSentAtMillis(), Math::max);
                }
            }
        }
        List<String> refreshed = new ArrayList<>();
        List<LuaScript.Call> appends = new ArrayList<>();
        for (List<Map.Entry<String, List<Chat>>> group : slots.split(byLog.entrySet(), e -> RedisBytes.of(e.getKey()))) {
            List<byte[]> keys = new ArrayList<>(group.size());
            List<byte[]> args = new ArrayList<>(3 + 2 * group.size() + 2 * chats.size());
            args.add(RedisBytes.of(keepAfterMillis + "-0"));
            args.add(RedisBytes.of(maxEntries));
            args.add(RedisBytes.of(keyTtl));
            for (Map.Entry<String, List<Chat>> log : group) {
                keys.add(RedisBytes.of(log.getKey()));
                args.add(RedisBytes.of(log.getValue().size()));
                args.add(refreshFlag(log.getKey(), now, refreshed));
                for (Chat chat : log.getValue()) {
                    args.add(RedisBytes.of(chat.getSentAtMillis() > 0 ? chat.getSentAtMillis() + "-*" : "*"));
                    args.add(chat.toByteArray());
                }
            }
            appends.add(new LuaScript.Call(keys, args));
        }
        List<LuaScript.Call> touches = new ArrayList<>();
        List<String> refreshedIndexes = new ArrayList<>();
        for (List<Map.Entry<String, Map<String, Long>>> group : slots.split(touched.entrySet(),
                e -> RedisBytes.of(e.getKey()))) {
            List<byte[]> keys = new ArrayList<>(group.size());
            List<byte[]> args = new ArrayList<>(3 + group.size() * 4);
            args.add(RedisBytes.of(now));
            args.add(RedisBytes.of(ttl));
            args.add(RedisBytes.of(keyTtl));
            for (Map.Entry<String, Map<String, Long>> index : group) {
                keys.add(RedisBytes.of(index.getKey()));
                args.add(RedisBytes.of(index.getValue().size()));
                args.add(refreshFlag(index.getKey(), now, refreshedIndexes));
                index.getValue().forEach((id, at) -> {
                    args.add(RedisBytes.of(id));
                    args.add(RedisBytes.of(at));
                });
            }
            touches.add(new LuaScript.Call(keys, args));
        }
        failOnFirst(APPEND.runAll(redis, appends));
        refreshed.forEach(key -> fresh.wrote(key, "", now));
        if (!touches.isEmpty()) {
            failOnFirst(TOUCH.runAll(redis, touches));
            refreshedIndexes.forEach(index -> fresh.wrote(index, "", now));
            touched.forEach((index, conversations) -> conversations.keySet()
                    .forEach(conversation -> fresh.wrote(index, conversation, now)));
        }
    }

    /**
     * The script's flag for {@code key}: 1 when its trim and time to live are due (not written within
     * the window), and then {@code key} joins {@code due}, to be noted as written once Redis took it.
     */
    private byte[] refreshFlag(String key, long now, List<String> due) {
        if (fresh.fresh(key, "", now)) {
            return RedisBytes.of(0);
        }
        due.add(key);
        return RedisBytes.of(1);
    }

    private static void failOnFirst(List<Object> results) {
        for (Object result : results) {
            if (result instanceof RuntimeException e) {
                throw e;
            }
        }
    }

    @Override
    public List<Entry> before(Conversation conversation, String before, int count) {
        Range<String> range = before.isEmpty() ? Range.unbounded() : Range.rightOpen("-", before);
        return entries(conversation, range, count, true);
    }

    @Override
    public List<Entry> after(Conversation conversation, String after, int count) {
        Range<String> range = after.isEmpty() ? Range.unbounded() : Range.leftOpen(after, "+");
        return entries(conversation, range, count, false);
    }

    @Override
    public List<Entry> afterTime(Conversation conversation, long afterMillis, int count) {
        return entries(conversation, Range.closed((afterMillis + 1) + "-0", "+"), count, false);
    }

    private List<Entry> entries(Conversation conversation, Range<String> range, int count, boolean reverse) {
        byte[] key = RedisBytes.of(RedisKeys.log(conversation));
        List<ByteRecord> records = redis.execute((RedisCallback<List<ByteRecord>>) c -> reverse
                ? c.streamCommands().xRevRange(key, range, Limit.limit().count(count))
                : c.streamCommands().xRange(key, range, Limit.limit().count(count)));
        List<Entry> entries = new ArrayList<>(records == null ? 0 : records.size());
        if (records != null) {
            for (ByteRecord record : records) {
                Entry entry = entry(conversation, record.getId().getValue(), chatOf(record));
                if (entry != null) {
                    entries.add(entry);
                }
            }
        }
        return entries;
    }

    private static byte[] chatOf(ByteRecord record) {
        for (Map.Entry<byte[], byte[]> field : record.getValue().entrySet()) {
            if (field.getKey().length == 1 && field.getKey()[0] == 'c') {
                return field.getValue();
            }
        }
        return new byte[0];
    }

    /** The entry, or null (logged) when its bytes are not a chat: a log is never left unreadable by one entry. */
    private static Entry entry(Conversation conversation, String position, byte[] bytes) {
        try {
            return new Entry(position, Chat.parseFrom(bytes));
        } catch (InvalidProtocolBufferException e) {
            log.warn("Passing over unreadable entry {} of the log of {}: {}", position, conversation.id(), e.getMessage());
            return null;
        }
    }

    @Override
    public List<Recent> recent(String user, long sinceMillis, int count) {
        Set<ZSetOperations.TypedTuple<byte[]>> tuples = redis.opsForZSet().reverseRangeByScoreWithScores(
                RedisKeys.conversationsOf(user), sinceMillis, Double.POSITIVE_INFINITY, 0, count);
        List<Recent> recent = new ArrayList<>(tuples == null ? 0 : tuples.size());
        if (tuples != null) {
            for (ZSetOperations.TypedTuple<byte[]> tuple : tuples) {
                recent.add(new Recent(new Conversation(RedisBytes.text(tuple.getValue())),
                        tuple.getScore() == null ? 0 : tuple.getScore().longValue()));
            }
        }
        return recent;
    }

    @Override
    public Found search(Conversation conversation, String before, List<String> words, int maxRead, int maxHits) {
        List<byte[]> args = new ArrayList<>(3 + words.size());
        args.add(RedisBytes.of(before));
        args.add(RedisBytes.of(maxRead));
        args.add(RedisBytes.of(maxHits));
        words.forEach(word -> args.add(RedisBytes.of(word)));
        List<?> reply = (List<?>) SEARCH.run(redis, List.of(RedisBytes.of(RedisKeys.log(conversation))), args);
        List<Entry> hits = new ArrayList<>((reply.size() - 2) / 2);
        for (int i = 2; i + 1 < reply.size(); i += 2) {
            Entry entry = entry(conversation, RedisBytes.text(reply.get(i)), (byte[]) reply.get(i + 1));
            if (entry != null) {
                hits.add(entry);
            }
        }
        return new Found(hits, RedisBytes.text(reply.get(0)), RedisBytes.number(reply.get(1)));
    }
}
