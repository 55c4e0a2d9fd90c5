package dev.cim.server.chat.history;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.HistoryRequest;
import dev.cim.common.protocol.proto.SearchRequest;
import dev.cim.server.chat.platform.Platform;
import dev.cim.server.chat.routing.Transcript;
import dev.cim.server.chat.session.Replies;
import dev.cim.server.chat.session.Session;
import dev.cim.server.store.ConversationLog;
import dev.cim.server.store.GroupStore;
import dev.cim.server.store.StoreFullException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Conversations' history: every private conversation and every group keeps its messages, in order,
 * for {@code cim.server.history.retention} (a group's log is its history; a private conversation's is
 * written behind the delivery by the router's {@link #transcript()}). A user reads the history of a
 * conversation they are in a page at a time ({@link HistoryPages}), and searches their own
 * conversations ({@link Search}). A message to everyone enters no history.
 */
public final class History {

    private static final Logger log = LoggerFactory.getLogger(History.class);
    private static final long SEARCH_RETRY_MILLIS = 500;

    private final Platform platform;
    private final Executor blocking;
    private final Transcript transcript;
    private final HistoryPages pages;
    private final Search search;
    /** The users with a search running. */
    private final Set<String> searching = ConcurrentHashMap.newKeySet();

    /**
     * @param blocking where searches run (they may read for a while), off the users' lanes
     */
    public History(ConversationLog logs, GroupStore groups, Platform platform, Executor blocking,
            HistorySettings settings) {
        this.platform = platform;
        this.blocking = blocking;
        this.transcript = settings.kept() ? new HistoryWriter(logs, platform, settings) : Transcript.NONE;
        Conversations conversations = new Conversations(groups);
        this.pages = new HistoryPages(logs, conversations, settings);
        this.search = new Search(logs, groups, conversations, settings, platform.clock());
    }

    /** Where the router notes the private messages it routed. */
    public Transcript transcript() {
        return transcript;
    }

    /** Answers a history request of {@code session}, on the user's lane. */
    public void page(Session session, long id, HistoryRequest request) {
        answer(platform.lanes().of(session.user()), session, id, () -> pages.page(session.user(), id, request));
    }

    /**
     * Answers a search of {@code session}, off the lanes; one at a time per user (a search reads up to
     * {@value Search#READ_BUDGET} messages: a second one while the first runs is refused, saying so).
     */
    public void search(Session session, long id, SearchRequest request) {
        String user = session.user();
        if (!searching.add(user)) {
            Replies one = new Replies();
            one.add(session, Envelopes.rateLimited(id, "not searched: a search of yours is still running "
                    + "(expected: one at a time; wait for its answer)", SEARCH_RETRY_MILLIS));
            one.send();
            return;
        }
        answer(blocking, session, id, () -> {
            try {
                return search.search(user, id, request);
            } finally {
                searching.remove(user);
            }
        });
    }

    private static void answer(Executor on, Session session, long id, Supplier<Envelope> work) {
        on.execute(() -> {
            Envelope answer;
            try {
                answer = work.get();
            } catch (RuntimeException e) {
                log.error("A history request of {} failed: {}", session, e.toString());
                answer = Envelopes.error(id, ErrorReply.Code.INTERNAL, StoreFullException.describe(e) + "; try again",
                        false);
            }
            Replies one = new Replies();
            one.add(session, answer);
            one.send();
        });
    }
}
