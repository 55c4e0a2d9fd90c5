package dev.cim.server.chat.history;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.HistoryEntry;
import dev.cim.common.protocol.proto.SearchHit;
import dev.cim.common.protocol.proto.SearchPage;
import dev.cim.common.protocol.proto.SearchRequest;
import dev.cim.server.store.Conversation;
import dev.cim.server.store.ConversationLog;
import dev.cim.server.store.GroupStore;
import dev.cim.server.store.LogPosition;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Searches a user's own conversations for messages holding every word asked for, newest first, a
 * page at a time. Each conversation is read back from where the last page stopped by a bounded scan
 * in the store ({@link ConversationLog#search}); a page reads at most {@value #READ_BUDGET} messages
 * in all, shared among the conversations, so its cost does not grow with how much is kept. A
 * conversation whose scan stopped before its beginning bounds the page: hits older than where it
 * stopped wait for the next page, which goes on from there, so that none is passed over and the
 * order holds across conversations.
 *
 * <p>What is searched: the user's private conversations with a message within the history's
 * retention (the most recent {@value #MAX_CONVERSATIONS}) and the groups they are in, each as far
 * back as its log keeps. Words are matched as whole words, case-insensitive for ASCII letters.
 */
final class Search {

    /** Messages read per page, at most, over all conversations. */
    static final int READ_BUDGET = 100_000;
    /** Private conversations searched, the most recent first. */
    static final int MAX_CONVERSATIONS = 200;
    /**
     * Messages one scan reads at least, however many conversations share the budget: with at most
     * {@value #MAX_CONVERSATIONS} private conversations and the user's groups (at most 100 by
     * default), the budget holds.
     */
    private static final int MIN_STEP = 300;
    private static final int MAX_WORDS = 5;
    private static final int MAX_WORD_LENGTH = 64;
    static final int DEFAULT_HITS = 20;
    static final int MAX_HITS = 100;

    private final ConversationLog logs;
    private final GroupStore groups;
    private final Conversations conversations;
    private final HistorySettings settings;
    private final Clock clock;

    Search(ConversationLog logs, GroupStore groups, Conversations conversations, HistorySettings settings,
            Clock clock) {
        this.logs = logs;
        this.groups = groups;
        this.conversations = conversations;
        this.settings = settings;
        this.clock = clock;
    }

    /** The answer to {@code request}, request {@code id} of {@code user}. Blocks on the store. */
    Envelope search(String user, long id, SearchRequest request) {
        List<String> words = words(request.getText());
        if (words.isEmpty()) {
            return Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "search for what? (expected: 1 to " + MAX_WORDS
                    + " words, each at most " + MAX_WORD_LENGTH + " characters)", false);
        }
        if (!Conversations.isPosition(request.getResume())) {
            return Envelopes.error(id, ErrorReply.Code.BAD_REQUEST,
                    "not searched: resume from where the last page said (<millis>-<sequence>)", false);
        }
        List<Conversation> scope;
        if (request.getConversation().isEmpty()) {
            scope = scope(user);
        } else {
            Conversations.Named named = conversations.named(user, request.getConversation());
            if (named.problem() != null) {
                return Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "not searched: " + named.problem(), false);
            }
            scope = List.of(named.conversation());
        }
        int limit = request.getLimit() == 0 ? DEFAULT_HITS : Math.min(MAX_HITS, request.getLimit());
        int step = Math.max(MIN_STEP, READ_BUDGET / Math.max(1, scope.size()));
        String resume = request.getResume();
        record Hit(Conversation conversation, ConversationLog.Entry entry) {
        }
        List<Hit> hits = new ArrayList<>();
        String bound = ""; // the newest place a scan stopped before its beginning: older hits wait
        for (Conversation conversation : scope) {
            ConversationLog.Found found = logs.search(conversation, resume, words, step, limit);
            found.hits().forEach(entry -> hits.add(new Hit(conversation, entry)));
            if (!found.stoppedAt().isEmpty() && LogPosition.compare(found.stoppedAt(), bound) > 0) {
                bound = found.stoppedAt();
            }
        }
        String cutoff = bound;
        hits.removeIf(hit -> !cutoff.isEmpty() && LogPosition.compare(hit.entry().position(), cutoff) < 0);
        hits.sort(Comparator.comparing((Hit hit) -> hit.entry().position(), LogPosition::compare).reversed());
        List<Hit> page = hits.size() > limit ? hits.subList(0, limit) : hits;
        SearchPage.Builder reply = SearchPage.newBuilder();
        page.forEach(hit -> reply.addHits(SearchHit.newBuilder().setConversation(hit.conversation().nameFor(user))
                .setEntry(HistoryEntry.newBuilder().setChat(hit.entry().chat()).setPosition(hit.entry().position()))));
        if (hits.size() > limit) {
            reply.setResume(page.get(page.size() - 1).entry().position());
        } else if (!cutoff.isEmpty()) {
            reply.setResume(cutoff);
        }
        long oldestKept = settings.kept() ? clock.millis() - settings.retention().toMillis() : clock.millis();
        reply.setSearchedBackToMillis(reply.getResume().isEmpty() ? oldestKept : LogPosition.millis(reply.getResume()));
        return Envelopes.builder(id).setSearchPage(reply).build();
    }

    /** The user's conversations: recent private ones, and their groups. */
    private List<Conversation> scope(String user) {
        List<Conversation> scope = new ArrayList<>();
        if (settings.kept()) {
            long since = clock.millis() - settings.retention().toMillis();
            logs.recent(user, since, MAX_CONVERSATIONS).forEach(recent -> scope.add(recent.conversation()));
        }
        for (String group : new TreeSet<>(groups.groupsOf(user))) {
            if (groups.isMember(group, user)) {
                scope.add(Conversation.group(group));
            }
        }
        return scope;
    }

    /**
     * The words of {@code text}: what lies between spaces and ASCII punctuation, with ASCII letters
     * lower-cased (as the store's scan does); empty when there are none or too many.
     */
    static List<String> words(String text) {
        StringBuilder lower = new StringBuilder(text.length());
        text.chars().forEach(c -> lower.append((char) (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c)));
        List<String> words = new ArrayList<>();
        for (String word : lower.toString().split("[\\s\\p{Punct}]+")) {
            if (!word.isEmpty()) {
                if (word.length() > MAX_WORD_LENGTH || words.size() == MAX_WORDS) {
                    return List.of();
                }
                words.add(word);
            }
        }
        return words;
    }
}
