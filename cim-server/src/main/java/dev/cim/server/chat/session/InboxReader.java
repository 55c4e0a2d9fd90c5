package dev.cim.server.chat.session;

import dev.cim.server.store.InboxStore;
import java.util.List;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a user's inbox for one session, a page at a time as the session's window makes room, so a
 * large inbox never sits in memory at once. Pages are read on the user's lane (behind any store
 * queued there before) and handed back on the session's owner thread. Owner-confined.
 *
 * <p>The session goes live when a page comes back short and nothing was stored for the user since it
 * was asked for: a store counted meanwhile ({@link #wanted}, {@link #storedBehind}) means one more
 * page, so that what was stored is read before anything newer is written live.
 */
final class InboxReader {

    private static final Logger log = LoggerFactory.getLogger(InboxReader.class);

    /** Where pages go, on the owner thread. */
    interface Pages {
        /** {@code page} was read, of the {@code asked} messages asked for. */
        void read(List<InboxStore.Entry> page, int asked);

        /** The store did not answer. */
        void failed(String reason);
    }

    private final String user;
    private final InboxStore inbox;
    private final Executor lane;
    private final Executor owner;
    private final SessionLimits limits;
    private final Pages pages;
    private String cursor = "0";
    private boolean asked;
    private boolean wanted;
    private long storedBehind;
    private long storedWhenAsked;

    InboxReader(String user, InboxStore inbox, Executor lane, Executor owner, SessionLimits limits, Pages pages) {
        this.user = user;
        this.inbox = inbox;
        this.lane = lane;
        this.owner = owner;
        this.limits = limits;
        this.pages = pages;
    }

    /**
     * Asks for the next page, unless one is asked for already or the window ({@code inWindow}
     * messages unacknowledged) has no room; then the page is {@link #isWanted wanted} until it has.
     */
    void ask(int inWindow) {
        if (asked) {
            return;
        }
        int room = limits.windowMessages() / 2 - inWindow;
        if (room <= 0) {
            wanted = true; // asked again when acknowledgements make room
            return;
        }
        int count = Math.min(limits.pageSize(), room);
        asked = true;
        wanted = false;
        storedWhenAsked = storedBehind;
        String after = cursor;
        lane.execute(() -> {
            List<InboxStore.Entry> page;
            try {
                page = inbox.page(user, after, count);
            } catch (RuntimeException e) {
                log.warn("Could not read the inbox of {}: {}", user, e.toString());
                owner.execute(() -> pages.failed("the server could not read your inbox; please reconnect"));
                return;
            }
            owner.execute(() -> {
                asked = false;
                pages.read(page, count);
            });
        });
    }

    /** Something was stored in the inbox while reading it: read one more page before going live. */
    void wanted() {
        wanted = true;
    }

    /** True when a page should be asked for as soon as the window has room. */
    boolean isWanted() {
        return wanted;
    }

    /** Live messages were stored behind what is being read. */
    void storedBehind() {
        storedBehind++;
    }

    /** {@code entry} was written: the next page starts after it. */
    void advance(InboxStore.Entry entry) {
        cursor = entry.id();
    }

    /** True when, after a page of {@code read} of the {@code asked} messages, there may be more to read. */
    boolean mayHaveMore(int read, int asked) {
        return read == asked || wanted || storedBehind != storedWhenAsked;
    }
}
