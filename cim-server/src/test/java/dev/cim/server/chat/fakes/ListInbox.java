package dev.cim.server.chat.fakes;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.server.store.InboxStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Every user's inbox in one list, ids "1", "2", ...; {@code online} says where a user is online for
 * {@link #storeIfOffline} (empty: offline). Synchronized, for tests whose lanes are threads.
 */
public final class ListInbox implements InboxStore {

    public final List<Entry> entries = new ArrayList<>();
    /** Users whose inbox {@link #storeIfOffline} finds full. */
    public final Set<String> full = ConcurrentHashMap.newKeySet();
    /** How many of the next {@link #storeIfOffline} calls fail as an unreachable store would. */
    public final AtomicInteger failStores = new AtomicInteger();
    private final Function<String, Set<String>> online;
    private int next = 1;

    public ListInbox() {
        this(user -> Set.of());
    }

    public ListInbox(Function<String, Set<String>> online) {
        this.online = online;
    }

    @Override
    public synchronized Offer storeIfOffline(String user, Chat chat) {
        if (failStores.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IllegalStateException("the store does not answer (a test's failure)");
        }
        Set<String> nodes = online.apply(user);
        if (!nodes.isEmpty()) {
            return new Offer.Online(nodes);
        }
        if (full.contains(user)) {
            return new Offer.Full("the inbox of " + user + " is full");
        }
        return new Offer.Stored(store(user, List.of(chat)).get(0));
    }

    @Override
    public synchronized List<String> store(String user, List<Chat> chats) {
        List<String> ids = new ArrayList<>();
        for (Chat chat : chats) {
            String id = Integer.toString(next++);
            entries.add(new Entry(id, chat, chat.getSerializedSize()));
            ids.add(id);
        }
        return ids;
    }

    @Override
    public synchronized List<Entry> page(String user, String after, int count) {
        long from = Long.parseLong(after);
        return entries.stream().filter(e -> e.chat().getRecipient().equals(user))
                .filter(e -> Long.parseLong(e.id()) > from).limit(count).toList();
    }

    @Override
    public synchronized void remove(String user, List<Entry> removed) {
        entries.removeAll(removed);
    }

    public synchronized List<String> texts() {
        return entries.stream().map(e -> e.chat().getText()).toList();
    }

    /** The chats stored, in order. */
    public synchronized List<Chat> chats() {
        return entries.stream().map(Entry::chat).toList();
    }
}
