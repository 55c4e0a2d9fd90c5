package dev.cim.client.core;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.HistoryRequest;
import dev.cim.common.protocol.proto.SearchRequest;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The history of this user's conversations, through their {@link CimClient}
 * ({@link CimClient#history()}): pages of a conversation ({@code @bob}, {@code #team}), newest back
 * or from a point on, and a search of all of them. Pages are oldest first; give a page's
 * {@link HistoryPage#oldest()} to {@link #before} to page back, its {@link HistoryPage#newest()} to
 * {@link #after} to read on. At most 200 messages a page (0 asks for the server's 20).
 */
public final class CimHistory {

    private final Outbox outbox;

    CimHistory(Outbox outbox) {
        this.outbox = outbox;
    }

    /** The newest {@code limit} messages of {@code conversation}. */
    public CompletableFuture<HistoryPage> latest(String conversation, int limit) {
        return before(conversation, "", limit);
    }

    /** The {@code limit} messages before {@code position} (empty: the newest). */
    public CompletableFuture<HistoryPage> before(String conversation, String position, int limit) {
        return page(HistoryRequest.newBuilder().setConversation(conversation).setBefore(position).setLimit(limit));
    }

    /** The first {@code limit} messages after {@code position}: what a new terminal missed. */
    public CompletableFuture<HistoryPage> after(String conversation, String position, int limit) {
        return page(HistoryRequest.newBuilder().setConversation(conversation).setAfter(position).setLimit(limit));
    }

    /** The first {@code limit} messages sent after {@code since}. */
    public CompletableFuture<HistoryPage> since(String conversation, Instant since, int limit) {
        return page(HistoryRequest.newBuilder().setConversation(conversation).setAfterMillis(since.toEpochMilli())
                .setLimit(limit));
    }

    /**
     * This user's messages that hold every word of {@code text}, newest first, in all their
     * conversations ({@code conversation} empty) or in one.
     *
     * @param resume where the last page stopped ({@link SearchResult#resume()}), or empty
     */
    public CompletableFuture<SearchResult> search(String text, String conversation, String resume, int limit) {
        Objects.requireNonNull(text, "text");
        return outbox.request(Pending.Kind.SEARCH, false, id -> Envelopes.builder(id).setSearchRequest(SearchRequest
                .newBuilder().setText(text).setConversation(conversation).setResume(resume).setLimit(limit)).build());
    }

    private CompletableFuture<HistoryPage> page(HistoryRequest.Builder request) {
        Objects.requireNonNull(request.getConversation(), "conversation");
        return outbox.request(Pending.Kind.HISTORY, false, id -> Envelopes.builder(id).setHistoryRequest(request).build());
    }
}
