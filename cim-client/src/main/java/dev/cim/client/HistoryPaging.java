package dev.cim.client;

import dev.cim.client.command.Command;
import dev.cim.client.console.ChatView;
import dev.cim.client.core.CimHistory;

/**
 * {@code :history} and {@code :search} at the console, paged by repeating them: the same
 * {@code :history} again shows the page before the one shown last, the same {@code :search} the next
 * hits. Any other history or search starts over.
 */
final class HistoryPaging {

    private final CimHistory history;
    private final ChatView view;
    /** The last history asked for, and the oldest position it showed; guarded by this. */
    private Command.History lastHistory;
    private String oldestShown = "";
    private Command.Search lastSearch;
    private String resume = "";

    HistoryPaging(CimHistory history, ChatView view) {
        this.history = history;
        this.view = view;
    }

    synchronized void history(Command.History command) {
        boolean again = command.equals(lastHistory);
        if (again && oldestShown.isEmpty()) {
            view.info("no older messages in " + command.conversation());
            return;
        }
        String before = again ? oldestShown : "";
        lastHistory = command;
        history.before(command.conversation(), before, command.count()).whenComplete((page, failure) -> {
            if (failure != null) {
                view.error(command.conversation() + ": " + ChatSession.cause(failure).getMessage());
                return;
            }
            synchronized (this) {
                if (command.equals(lastHistory)) {
                    oldestShown = page.more() ? page.oldest() : "";
                }
            }
            view.history(page, !before.isEmpty());
        });
    }

    synchronized void search(Command.Search command) {
        boolean again = command.equals(lastSearch);
        if (again && resume.isEmpty()) {
            view.info("no more hits for '" + command.text() + "'");
            return;
        }
        String from = again ? resume : "";
        lastSearch = command;
        history.search(command.text(), command.conversation(), from, 0).whenComplete((result, failure) -> {
            if (failure != null) {
                view.error("search: " + ChatSession.cause(failure).getMessage());
                return;
            }
            synchronized (this) {
                if (command.equals(lastSearch)) {
                    resume = result.resume();
                }
            }
            view.searchResult(command.text(), result);
        });
    }
}
