package dev.cim.server.chat.history;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.HistoryEntry;
import dev.cim.common.protocol.proto.HistoryPage;
import dev.cim.common.protocol.proto.HistoryRequest;
import dev.cim.server.store.ConversationLog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Pages of a conversation's history: the newest, the page before a position (paging back), or what
 * came after a position or a time (what a new terminal or a reloaded page missed). Oldest first in
 * every page. Blocks on the store.
 */
final class HistoryPages {

    /** Messages per page when the request names no number, and at most. */
    static final int DEFAULT_PAGE = 20;
    static final int MAX_PAGE = 200;

    private final ConversationLog logs;
    private final Conversations conversations;
    private final HistorySettings settings;

    HistoryPages(ConversationLog logs, Conversations conversations, HistorySettings settings) {
        this.logs = logs;
        this.conversations = conversations;
        this.settings = settings;
    }

    /** The answer to {@code request}, request {@code id} of {@code user}. */
    Envelope page(String user, long id, HistoryRequest request) {
        Conversations.Named named = conversations.named(user, request.getConversation());
        if (named.problem() != null) {
            return Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "no history: " + named.problem(), false);
        }
        if (!named.conversation().isGroup() && !settings.kept()) {
            return Envelopes.error(id, ErrorReply.Code.BAD_REQUEST,
                    "no history: this server keeps none of private conversations (cim.server.history.retention=0)",
                    false);
        }
        if (!Conversations.isPosition(request.getBefore()) || !Conversations.isPosition(request.getAfter())) {
            return Envelopes.error(id, ErrorReply.Code.BAD_REQUEST,
                    "no history: a position is <millis>-<sequence>, as the server gave it", false);
        }
        int limit = request.getLimit() == 0 ? DEFAULT_PAGE : Math.min(MAX_PAGE, request.getLimit());
        List<ConversationLog.Entry> entries;
        boolean newestFirst = false;
        if (!request.getAfter().isEmpty()) {
            entries = logs.after(named.conversation(), request.getAfter(), limit + 1);
        } else if (request.getAfterMillis() > 0) {
            entries = logs.afterTime(named.conversation(), request.getAfterMillis(), limit + 1);
        } else {
            entries = logs.before(named.conversation(), request.getBefore(), limit + 1);
            newestFirst = true;
        }
        boolean more = entries.size() > limit;
        List<ConversationLog.Entry> page = new ArrayList<>(more ? entries.subList(0, limit) : entries);
        if (newestFirst) {
            Collections.reverse(page);
        }
        HistoryPage.Builder reply = HistoryPage.newBuilder().setConversation(named.conversation().nameFor(user))
                .setMore(more);
        page.forEach(entry -> reply.addEntries(HistoryEntry.newBuilder().setChat(entry.chat())
                .setPosition(entry.position())));
        return Envelopes.builder(id).setHistoryPage(reply).build();
    }
}
