package dev.cim.server.chat.session;

import dev.cim.server.store.ConversationLog;
import dev.cim.server.store.InboxStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what waits for a user when a session starts, a page at a time as the session's window makes
 * room, so that a large backlog never sits in memory at once: first the user's inbox, then the log of
 * each of their groups after their cursor there. Pages are read on the user's lane (behind any store
 * queued there before) and handed back on the session's owner thread. Owner-confined.
 *
 * <p>The inbox is read to its end when a page comes back short and nothing was stored for the user
 * since it was asked for: a store counted meanwhile ({@link #wanted}, {@link #storedBehind}) means one
 * more page, so that what was stored is read before anything newer is written live. Something stored
 * while a group's log is read sends the reader back to the inbox, then on to the groups left.
 */
final class InboxReader {

    private static final Logger log = LoggerFactory.getLogger(InboxReader.class);

    /** A message read: from the inbox ({@code inboxEntry} set) or a group's log ({@code delivery.position()} set). */
    record Read(Delivery delivery, InboxStore.Entry inboxEntry) {
    }

    /** Where pages go, on the owner thread. */
    interface Pages {
        /** {@code page} was read; {@code more} when there may be more to read (ask again). */
        void read(List<Read> page, boolean more);

        /** The store did not answer. */
        void failed(String reason);
    }

    private final String user;
    private final InboxStore inbox;
    private final GroupLogs groupLogs;
    private final List<String> groups;
    private final Executor lane;
    private final Executor owner;
    private final SessionLimits limits;
    private final Pages pages;
    private String cursor = "0";
    private boolean asked;
    private boolean wanted;
    private long storedBehind;
    private long storedWhenAsked;
    /** The group being read, as an index into {@link #groups}; -1 while the inbox is. */
    private int group = -1;
    /** The next group to read once the inbox is read to its end. */
    private int nextGroup;
    /** Where the group being read is read up to; null until its cursor is known. */
    private String groupCursor;

    /**
     * @param groups the user's groups, whose logs are read after the inbox
     */
    InboxReader(String user, InboxStore inbox, GroupLogs groupLogs, List<String> groups, Executor lane, Executor owner,
            SessionLimits limits, Pages pages) {
        this.user = user;
        this.inbox = inbox;
        this.groupLogs = groupLogs;
        this.groups = groups;
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
        if (group < 0) {
            askInbox(count);
        } else {
            askGroup(groups.get(group), count);
        }
    }

    private void askInbox(int count) {
        storedWhenAsked = storedBehind;
        String after = cursor;
        read(() -> {
            List<InboxStore.Entry> page = inbox.page(user, after, count);
            List<Read> reads = new ArrayList<>(page.size());
            page.forEach(entry -> reads.add(new Read(Delivery.of(entry.chat(), null), entry)));
            return reads;
        }, reads -> {
            boolean more = reads.size() == count || wanted || storedBehind != storedWhenAsked;
            if (!more && nextGroup < groups.size()) {
                group = nextGroup;
                groupCursor = null;
                more = true;
            }
            return more;
        });
    }

    private void askGroup(String name, int count) {
        String after = groupCursor;
        read(() -> {
            String from = after != null ? after : groupLogs.cursor(name, user);
            List<ConversationLog.Entry> page = groupLogs.after(name, from, count);
            List<Read> reads = new ArrayList<>(page.size());
            page.forEach(entry -> reads.add(new Read(Delivery.posted(entry.chat(), entry.position()), null)));
            return reads;
        }, reads -> {
            if (reads.size() == count) {
                return true;
            }
            nextGroup = group + 1;
            group = wanted ? -1 : (nextGroup < groups.size() ? nextGroup : -1);
            groupCursor = null;
            return wanted || group >= 0;
        });
    }

    /** On the lane: {@code work} reads a page; on the owner: {@code more} says whether to read on. */
    private void read(Callable<List<Read>> work, Predicate<List<Read>> more) {
        lane.execute(() -> {
            List<Read> page;
            try {
                page = work.call();
            } catch (Exception e) {
                log.warn("Could not read what waits for {}: {}", user, e.toString());
                owner.execute(() -> pages.failed("the server could not read your inbox; please reconnect"));
                return;
            }
            owner.execute(() -> {
                asked = false;
                pages.read(page, more.test(page));
            });
        });
    }

    /** Something was stored in the inbox while reading: read the inbox again before going live. */
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

    /** {@code read} was written: the next page starts after it. */
    void advance(Read read) {
        if (read.inboxEntry() != null) {
            cursor = read.inboxEntry().id();
        } else {
            groupCursor = read.delivery().position();
        }
    }
}
