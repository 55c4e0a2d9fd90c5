package dev.cim.server.redis;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.server.store.InboxStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.stream.ByteRecord;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;

/**
 * Inboxes as Redis streams ({@link RedisKeys#inbox}), one per user: {@code XADD} appends, pages are
 * {@code XRANGE} after the last id read, and an acknowledged message is {@code XDEL}eted. Stream ids
 * grow with time, so messages older than the inbox's time to live are trimmed by id as new ones
 * arrive. Each step that must see the user's presence, account and limits at once is one Lua script
 * over the user's keys (one hash tag, so it is valid on a cluster).
 */
public final class RedisInboxStore implements InboxStore {

    private static final Logger log = LoggerFactory.getLogger(RedisInboxStore.class);

    /** Old entries trimmed per store, at most: the work of one store stays bounded. */
    private static final int TRIM_BATCH = 100;

    // Drops entries older than the time to live, keeping the byte count right. The cutoff is read
    // from Redis' own clock, the one that stamps stream ids.
    private static final String TRIM = """
            local function trim(inbox, bytes, ttl)
              local time = redis.call('TIME')
              local cutoff = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) - tonumber(ttl)
              local old = redis.call('XRANGE', inbox, '-', '(' .. string.format('%%d', cutoff) .. '-0', 'COUNT', %d)
              local freed = 0
              for _, entry in ipairs(old) do
                freed = freed + #entry[2][2]
                redis.call('XDEL', inbox, entry[1])
              end
              if freed > 0 then redis.call('DECRBY', bytes, freed) end
            end
            """.formatted(TRIM_BATCH);

    // KEYS: account, presence, inbox, bytes. ARGV: now, max messages, max bytes, ttl ms, chat.
    // Returns {0, id} stored, {1, node...} online, {2, count, bytes} full, {3} no such user.
    private static final LuaScript STORE_IF_OFFLINE = new LuaScript("store-if-offline", TRIM + """
            if redis.call('EXISTS', KEYS[1]) == 0 then return {3} end
            local now = tonumber(ARGV[1])
            local fields = redis.call('HGETALL', KEYS[2])
            local online = {1}
            for i = 1, #fields, 2 do
              local value = fields[i + 1]
              local colon = string.find(value, ':', 1, true)
              if colon and tonumber(string.sub(value, colon + 1)) > now then
                table.insert(online, fields[i])
              end
            end
            if #online > 1 then return online end
            trim(KEYS[3], KEYS[4], ARGV[4])
            local count = redis.call('XLEN', KEYS[3])
            local bytes = tonumber(redis.call('GET', KEYS[4]) or '0')
            if count >= tonumber(ARGV[2]) or bytes + #ARGV[5] > tonumber(ARGV[3]) then
              return {2, count, bytes}
            end
            local id = redis.call('XADD', KEYS[3], '*', 'c', ARGV[5])
            redis.call('INCRBY', KEYS[4], #ARGV[5])
            return {0, id}
            """);

    // KEYS: inbox, bytes. ARGV: ttl ms, chat... Returns the ids, in order.
    private static final LuaScript STORE = new LuaScript("store", TRIM + """
            trim(KEYS[1], KEYS[2], ARGV[1])
            local ids = {}
            local total = 0
            for i = 2, #ARGV do
              table.insert(ids, redis.call('XADD', KEYS[1], '*', 'c', ARGV[i]))
              total = total + #ARGV[i]
            end
            redis.call('INCRBY', KEYS[2], total)
            return ids
            """);

    // KEYS: inbox, bytes. ARGV: id, size, id, size... Deletes those still there.
    private static final LuaScript REMOVE = new LuaScript("remove", """
            local freed = 0
            for i = 1, #ARGV, 2 do
              freed = freed + redis.call('XDEL', KEYS[1], ARGV[i]) * tonumber(ARGV[i + 1])
            end
            if freed > 0 then redis.call('DECRBY', KEYS[2], freed) end
            return {freed}
            """);

    private final RedisTemplate<String, byte[]> redis;
    private final ReplicaAcks acks;
    private final LongSupplier clock;
    private final int maxMessages;
    private final long maxBytes;
    private final Duration ttl;

    /**
     * @param maxMessages the most messages an inbox holds (beyond, new ones are refused)
     * @param maxBytes    the most bytes an inbox holds
     * @param ttl         how long a message waits in an inbox before it is dropped
     */
    public RedisInboxStore(RedisTemplate<String, byte[]> redis, LongSupplier clock, int maxMessages, long maxBytes,
            Duration ttl) {
        this(redis, clock, maxMessages, maxBytes, ttl, ReplicaAcks.NONE);
    }

    /**
     * @param acks what a stored message waits for before it counts as stored (replicas having it)
     */
    public RedisInboxStore(RedisTemplate<String, byte[]> redis, LongSupplier clock, int maxMessages, long maxBytes,
            Duration ttl, ReplicaAcks acks) {
        this.acks = acks;
        this.redis = redis;
        this.clock = clock;
        this.maxMessages = maxMessages;
        this.maxBytes = maxBytes;
        this.ttl = ttl;
    }

    @Override
    public Offer storeIfOffline(String user, dev.cim.common.protocol.proto.Chat chat) {
        long now = clock.getAsLong();
        List<?> reply = (List<?>) STORE_IF_OFFLINE.run(redis,
                List.of(RedisBytes.of(RedisKeys.account(user)), RedisBytes.of(RedisKeys.presence(user)),
                        RedisBytes.of(RedisKeys.inbox(user)), RedisBytes.of(RedisKeys.inboxBytes(user))),
                List.of(RedisBytes.of(now), RedisBytes.of(maxMessages), RedisBytes.of(maxBytes),
                        RedisBytes.of(ttl.toMillis()), chat.toByteArray()));
        int code = (int) RedisBytes.number(reply.get(0));
        return switch (code) {
            case 0 -> {
                acks.await(RedisBytes.of(RedisKeys.inbox(user)));
                yield new Offer.Stored(RedisBytes.text(reply.get(1)));
            }
            case 1 -> {
                Set<String> nodes = new HashSet<>();
                for (int i = 1; i < reply.size(); i++) {
                    nodes.add(RedisBytes.text(reply.get(i)));
                }
                yield new Offer.Online(nodes);
            }
            case 2 -> new Offer.Full(user + "'s inbox is full (" + RedisBytes.number(reply.get(1)) + " messages, "
                    + RedisBytes.number(reply.get(2)) + " bytes; the most is " + maxMessages + " messages or "
                    + maxBytes + " bytes): message not stored");
            default -> new Offer.Unknown();
        };
    }

    @Override
    public List<String> store(String user, List<Chat> chats) {
        if (chats.isEmpty()) {
            return List.of();
        }
        List<byte[]> args = new ArrayList<>(chats.size() + 1);
        args.add(RedisBytes.of(ttl.toMillis()));
        chats.forEach(chat -> args.add(chat.toByteArray()));
        List<?> reply = (List<?>) STORE.run(redis,
                List.of(RedisBytes.of(RedisKeys.inbox(user)), RedisBytes.of(RedisKeys.inboxBytes(user))), args);
        acks.await(RedisBytes.of(RedisKeys.inbox(user)));
        List<String> ids = new ArrayList<>(reply.size());
        reply.forEach(id -> ids.add(RedisBytes.text(id)));
        return ids;
    }

    @Override
    public List<Entry> page(String user, String after, int count) {
        byte[] key = RedisBytes.of(RedisKeys.inbox(user));
        Range<String> range = "0".equals(after) ? Range.unbounded() : Range.leftOpen(after, "+");
        List<ByteRecord> records = redis.execute((RedisCallback<List<ByteRecord>>) c ->
                c.streamCommands().xRange(key, range, Limit.limit().count(count)));
        List<Entry> entries = new ArrayList<>(records == null ? 0 : records.size());
        if (records == null) {
            return entries;
        }
        for (ByteRecord record : records) {
            byte[] bytes = new byte[0];
            for (Map.Entry<byte[], byte[]> field : record.getValue().entrySet()) {
                if (field.getKey().length == 1 && field.getKey()[0] == 'c') {
                    bytes = field.getValue();
                }
            }
            try {
                entries.add(new Entry(record.getId().getValue(), Chat.parseFrom(bytes), bytes.length));
            } catch (InvalidProtocolBufferException e) {
                log.warn("Dropping an unreadable message {} from the inbox of {}: {}", record.getId(), user, e.getMessage());
                remove(user, List.of(new Entry(record.getId().getValue(), Chat.getDefaultInstance(), bytes.length)));
            }
        }
        return entries;
    }

    @Override
    public void remove(String user, List<Entry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        List<byte[]> args = new ArrayList<>(entries.size() * 2);
        for (Entry entry : entries) {
            args.add(RedisBytes.of(entry.id()));
            args.add(RedisBytes.of(entry.bytes()));
        }
        REMOVE.run(redis, List.of(RedisBytes.of(RedisKeys.inbox(user)), RedisBytes.of(RedisKeys.inboxBytes(user))), args);
    }

    /** The messages in {@code user}'s inbox. */
    public long size(String user) {
        Long size = redis.execute((RedisCallback<Long>) c -> c.streamCommands().xLen(RedisBytes.of(RedisKeys.inbox(user))));
        return size == null ? 0 : size;
    }
}
