/**
 * actions.js: what the page does for the user: carries out a command of the input box or a
 * button of the scheduled panel as requests on the connection, and says the outcome in the
 * notices (the console's words) or as a one-line error. Also keeps the lists the page shows in step
 * with the server (scheduled messages, groups, who is online) and holds the release timers of the
 * user's scheduled messages due within ten minutes: each asks the server to send its message at its
 * time (the server sends it anyway, a little later, if no terminal of the user does: this is for
 * precision, as in the console).
 *
 * No DOM: app.js gives it the page (createActions) and draws what changed.
 */

import { HELP, conversationOf } from "./commands.js";
import { EVERYONE, scheduledOf } from "./chats.js";
import { when, roundedDelay, count, dueText, ruleText, lateness } from "./text.js";
import { browserZone } from "./times.js";

/** Scheduled messages due within this get a release timer on the page. */
const RELEASE_WINDOW_MILLIS = 10 * 60_000;

/**
 * The page's actions.
 *
 * @param page {session, connection (both read when used), say(lines, kind), problem(text),
 *             changed() (draw again), open(conversation), history(conversation, before, limit),
 *             logout()}
 * @returns {run(command), scheduledActions: the panel's {edit, reschedule, cancel, skip},
 *          refreshScheduled(), refreshGroups(), refreshOnline(show), armReleases()}
 */
export function createActions(page) {
    /** Carries out a command of the input box. */
    function run(command) {
        switch (command.kind) {
            case "nothing": return;
            case "send": return send(command.to, command.text);
            case "delay": return schedule(command, Date.now() + command.delayMillis, command.delayMillis);
            case "at": return command.at ? schedule(command, 0, 0, { at: command.at, atZone: command.atZone, zone: zone() })
                : schedule(command, command.dueAtMillis, Math.max(0, command.dueAtMillis - Date.now()));
            case "online": return schedule(command, command.deadlineMillis, 0, { whenOnline: true });
            case "every": return schedule(command, 0, 0, {
                every: command.every, zone: command.zone, untilMillis: String(command.untilMillis || 0), times: command.times || 0,
            });
            case "delays": return listScheduled();
            case "skip": return byNumber(command.number, (m) => skip(m).catch(
                (e) => page.problem("skip #" + command.number + ": " + e.message)));
            case "sent": return listSent(command.limit);
            case "tz": return command.zone ? setZone(command.zone) : page.say(["your time zone: " + (page.session.zone
                ? page.session.zone + " (kept on your account)"
                : browserZone() + " (this browser's; your account has none: :tz <Zone> sets it)")]);
            case "cancel": return byNumber(command.number, (m) => cancel(m).then(
                () => page.say(["cancelled scheduled message #" + command.number]),
                (e) => page.problem("cancel #" + command.number + ": " + e.message)));
            case "edit": return byNumber(command.number, (m) => edit(m, command.text).then(
                (edited) => page.say(["scheduled message #" + command.number + " now says: " + edited.text]),
                (e) => page.problem("edit #" + command.number + ": " + e.message)));
            case "move": return byNumber(command.number, (m) => {
                if (m.whenOnline || m.recurring) {
                    page.problem("move #" + command.number + ": " + (m.whenOnline
                        ? "it goes when " + m.recipient + " logs in, not at a time (:cancel it and schedule it again)"
                        : "a series' times come from its rule (:skip skips its next occurrence)"));
                    return undefined;
                }
                const due = command.dueAtMillis ?? Date.now() + command.delayMillis;
                return reschedule(m, due).then(
                    (moved) => page.say(["scheduled message #" + command.number + " will be sent at " + when(moved.dueAt)]),
                    (e) => page.problem("move #" + command.number + ": " + e.message));
            });
            case "create": return group({ create: { name: command.group, open: command.open, members: command.members } },
                "create #" + command.group, (g) => "made #" + g.name + (g.open ? " (open)" : "") + " with "
                    + count(g.memberCount || 0, "member"), "#" + command.group);
            case "invite": return group({ invite: { name: command.group, users: command.users } }, "invite to #" + command.group,
                (g) => "#" + g.name + " has " + count(g.memberCount || 0, "member") + " now");
            case "kick": return group({ kick: { name: command.group, users: command.users } }, "kick from #" + command.group,
                (g) => "#" + g.name + " has " + count(g.memberCount || 0, "member") + " now");
            case "join": return group({ join: command.group }, "join #" + command.group,
                (g) => "you joined #" + g.name + " (" + count(g.memberCount || 0, "member") + ")", "#" + command.group);
            case "leave": return group({ leave: command.group }, "leave #" + command.group, () => "you left #" + command.group);
            case "groups": return listGroups();
            case "members": return members(command.group);
            case "history": return historyCommand(command);
            case "search": return search(command);
            case "olu": return refreshOnline(true);
            case "help": return page.say(HELP);
            case "logout": return page.logout();
            default: return page.problem("cannot do " + command.kind + " here");
        }
    }

    function send(to, text) {
        const key = conversationOf(to);
        const { id, answer } = page.connection.request("send", { recipient: to, text });
        const message = page.session.chats.addOwn(key, page.connection.messageId(id), to, text, Date.now());
        if (key !== EVERYONE) {
            page.session.known.add(key);
        }
        if (page.session.open !== key) {
            page.open(key);
        }
        answer.then((receipt) => {
            const outcomes = { DELIVERED: "delivered", STORED: "stored", POSTED: "posted", HANDLED_EARLIER: "delivered" };
            message.state = outcomes[receipt.outcome] || "delivered";
            if (receipt.outcome === "STORED" && !to.startsWith("#")) {
                page.say([(receipt.storedFor || to) + " is offline: the message waits in their inbox for their next login"]);
            }
            page.changed();
        }, (e) => {
            message.state = "refused";
            message.reason = e.message;
            if (e.code !== "CLOSED") {
                page.problem(e.message.startsWith("not sent") ? e.message : "not sent: " + e.message);
            }
            page.changed();
        });
        page.changed();
    }

    /**
     * Schedules `command`'s text for its recipient: due at `dueAt` (for "when online", the deadline;
     * 0 when the server works the time out), with `timing` for what else the server needs to know.
     */
    function schedule(command, dueAt, requested, timing = {}) {
        const max = Number(page.session.info.maxScheduled || 0);
        if (max > 0 && page.session.scheduled.byId.size >= max) {
            page.problem("not scheduled: you hold " + max + " scheduled messages, the most the server allows "
                + "(cancel one, or wait until one is sent)");
            return;
        }
        const late = command.dropLateAfterMillis ? { dropLateAfterMillis: String(command.dropLateAfterMillis) } : {};
        const body = {
            recipient: command.to, text: command.text, dueAtMillis: String(dueAt),
            requestedMillis: String(Math.max(0, Math.round(requested))),
        };
        if (Object.keys(timing).length + Object.keys(late).length > 0) {
            body.timing = { ...timing, ...late };
        }
        const { answer } = page.connection.request("schedule", body);
        if (page.connection.state.name !== "online") {
            page.say(["(not connected: this is done when the connection is back)"]);
        }
        answer.then((change) => {
            const m = scheduledOf(change.message || {});
            const dueIn = " (in " + roundedDelay(m.dueAt - Date.now()) + ")";
            const how = m.whenOnline ? " will be sent " + dueText(m)
                : m.recurring ? ", " + ruleText(m) + ": first at " + when(m.dueAt) + dueIn
                : " will be sent at " + when(m.dueAt) + dueIn;
            page.say([(m.recurring ? "recurring message #" : "scheduled message #") + m.number + " to " + m.recipient + how
                + (m.lateLimit ? ", dropped if more than " + roundedDelay(m.lateLimit) + " late" : "")
                + "; it is kept by the server"]);
        }, (e) => page.problem(e.message.startsWith("not scheduled") ? e.message : "not scheduled: " + e.message));
    }

    /** The zone the server reads times of day in: the account's, else this browser's. */
    function zone() {
        return page.session.zone || browserZone();
    }

    function skip(message) {
        if (!message.recurring) {
            return Promise.reject(new Error("not a recurring message (:skip skips an occurrence of one scheduled with "
                + ":every; :cancel cancels this one)"));
        }
        return page.connection.request("skip", { id: message.id }).answer.then((change) => {
            const next = change.next ? scheduledOf(change.next) : null;
            page.say([next ? "skipped occurrence " + (next.occurrence - 1) + " of #" + message.number + "; next: occurrence "
                + next.occurrence + " at " + when(next.dueAt)
                : "skipped the last occurrence of #" + message.number + ": the series has ended"]);
            page.changed();
        });
    }

    function setZone(name) {
        page.connection.request("setSettings", { zone: name }).answer.then((settings) => {
            page.session.zone = settings.zone || "";
            page.say(["your time zone is now " + page.session.zone + " (kept on your account: your other terminals "
                + "use it too, and others' 'their' times for you are read in it)"]);
        }, (e) => page.problem(e.message.startsWith("not changed") ? e.message : "not changed: " + e.message));
    }

    function listSent(limit) {
        page.connection.request("listSent", { limit }).answer.then((list) => {
            const records = list.records || [];
            if (records.length === 0) {
                page.say(["no scheduled message was sent, failed or dropped lately"]);
                return;
            }
            page.say([count(records.length, "scheduled message") + " done with, newest first:"].concat(records.map(sentLine)));
        }, (e) => page.problem("cannot list what was sent: " + e.message));
    }

    /** One record of :sent: what, to whom, when it was due, and what became of it. */
    function sentLine(record) {
        const m = scheduledOf(record.message || {});
        const at = Number(record.atMillis || 0);
        const what = "  #" + m.number + (m.occurrence ? " (occurrence " + m.occurrence + ")" : "") + "  to " + m.recipient
            + "  " + m.text + "  ";
        const due = m.whenOnline ? "when " + m.recipient + " logged in" : "due " + when(m.dueAt);
        switch (record.outcome) {
            case "SENT": return what + due + ", sent " + when(at) + (m.whenOnline ? "" : " (" + lateness(at - m.dueAt) + ")");
            case "FAILED": return what + due + ", failed " + when(at) + ": " + (record.reason || "");
            case "DROPPED": return what + due + ", dropped " + when(at) + ": " + (record.reason || "");
            default: return what + due + ", " + String(record.outcome || "?").toLowerCase() + " " + when(at);
        }
    }

    function cancel(message) {
        return page.connection.request("cancel", { id: message.id }).answer;
    }

    function edit(message, text) {
        if (!text.trim()) {
            return Promise.reject(new Error("the text is missing"));
        }
        if (text.length > Number(page.session.info.maxTextLength || 4000)) {
            return Promise.reject(new Error("the message is " + text.length + " characters long; the maximum is "
                + page.session.info.maxTextLength));
        }
        return page.connection.request("edit", { id: message.id, text }).answer.then((change) => page.session.scheduled.change(change));
    }

    function reschedule(message, dueAt) {
        const now = Date.now();
        if (dueAt <= now) {
            return Promise.reject(new Error("that time has passed (pick a time to come)"));
        }
        return page.connection.request("edit", {
            id: message.id, dueAtMillis: String(dueAt), requestedMillis: String(dueAt - now),
        }).answer.then((change) => page.session.scheduled.change(change));
    }

    function byNumber(number, action) {
        const message = page.session.scheduled.byNumber(number);
        if (!message) {
            page.problem("no scheduled message #" + number + " (sent or cancelled already? :delays lists them)");
            return;
        }
        action(message);
    }

    function refreshScheduled() {
        return page.connection.request("listScheduled", { dueBeforeMillis: "0" }).answer.then((frames) => {
            page.session.scheduled.reset(frames.flatMap((f) => f.messages || []));
            armReleases();
            page.changed();
            return page.session.scheduled.ordered();
        }, (e) => {
            if (e.code !== "CLOSED") {
                page.problem("cannot list the scheduled messages: " + e.message);
            }
            return null;
        });
    }

    function listScheduled() {
        refreshScheduled().then((messages) => {
            if (messages === null) {
                return;
            }
            if (messages.length === 0) {
                page.say(["no scheduled messages"]);
                return;
            }
            page.say([count(messages.length, "scheduled message") + ":"].concat(messages.map((m) =>
                "  #" + m.number + "  " + dueText(m) + "  to " + m.recipient + "  " + m.text
                + (m.recurring ? "  (" + ruleText(m) + ")" : ""))));
        });
    }

    /**
     * Holds a timer for each scheduled message due within the window, which asks the server to send it
     * at its time; drops the timers of messages no longer scheduled or moved.
     */
    function armReleases() {
        if (!page.session) {
            return;
        }
        const now = Date.now();
        // A "when online" message is the server's to send, at its recipient's login (its due time
        // is a deadline); a series' timer is for its next occurrence, and moves when that does.
        const wanted = new Map(page.session.scheduled.ordered()
            .filter((m) => !m.whenOnline && m.dueAt - now <= RELEASE_WINDOW_MILLIS).map((m) => [m.id, m]));
        for (const [id, release] of page.session.releases) {
            const m = wanted.get(id);
            if (!m || m.dueAt !== release.dueAt) {
                clearTimeout(release.timer);
                page.session.releases.delete(id);
            }
        }
        for (const m of wanted.values()) {
            if (!page.session.releases.has(m.id)) {
                const timer = setTimeout(() => {
                    page.session.releases.delete(m.id);
                    // Sent already by the server or another terminal, or not due by the server's clock
                    // (it then sends it itself): nothing to say.
                    page.connection.request("release", { id: m.id }).answer.catch(() => { });
                }, Math.max(0, m.dueAt - now));
                page.session.releases.set(m.id, { dueAt: m.dueAt, timer });
            }
        }
    }

    // Groups.

    function group(action, what, success, openAfter = null) {
        page.connection.request("groupRequest", action).answer.then((frames) => {
            const reply = frames[0] || {};
            const g = (reply.groups || [])[0] || { name: "", memberCount: 0 };
            page.say([success(g)].concat((reply.refused || []).map((r) => "not added: " + r)));
            refreshGroups();
            if (openAfter) {
                page.open(openAfter);
            }
        }, (e) => page.problem(what + ": " + e.message));
    }

    function refreshGroups(show = false) {
        return page.connection.request("groupRequest", { list: {} }).answer.then((frames) => {
            const groups = frames.flatMap((f) => f.groups || []);
            page.session.groups = groups;
            const names = new Set(groups.map((g) => "#" + g.name));
            for (const g of groups) {
                page.session.chats.ensure("#" + g.name).group = g;
            }
            for (const conversation of page.session.chats.conversations.values()) {
                if (conversation.key.startsWith("#") && !names.has(conversation.key)) {
                    conversation.group = null; // left, or ended: its messages stay, the count goes
                }
            }
            page.changed();
            return groups;
        }, (e) => {
            if (show && e.code !== "CLOSED") {
                page.problem("cannot list your groups: " + e.message);
            }
            return null;
        });
    }

    function listGroups() {
        refreshGroups(true).then((groups) => {
            if (groups === null) {
                return;
            }
            if (groups.length === 0) {
                page.say(["you are in no group (:create #name makes one)"]);
                return;
            }
            page.say(["your groups (" + groups.length + "):"].concat(groups.map((g) => "  #" + g.name + "  "
                + count(g.memberCount || 0, "member") + (g.open ? ", open" : "") + ", owner "
                + (g.owner === page.session.me ? "you" : g.owner))));
        });
    }

    function members(name) {
        page.connection.request("groupRequest", { members: name }).answer.then((frames) => {
            const names = frames.flatMap((f) => ((f.groups || [])[0] || {}).members || []);
            page.say(["#" + name + " (" + names.length + "): " + names.join(", ")]);
        }, (e) => page.problem("members of #" + name + ": " + e.message));
    }

    // History, search, who is online.

    function historyCommand(command) {
        const again = page.session.lastHistory && page.session.lastHistory.conversation === command.conversation
            && page.session.lastHistory.count === command.count;
        page.session.lastHistory = command;
        const conversation = page.session.chats.ensure(command.conversation);
        if (again && !conversation.more) {
            page.say(["no older messages in " + command.conversation]);
            return;
        }
        conversation.loaded = true;
        page.open(command.conversation);
        page.history(command.conversation, again ? conversation.oldest : "", command.count).then((n) => {
            page.say([n === 0 ? "no " + (again ? "older " : "") + "messages in " + command.conversation
                : command.conversation + ", " + n + (again ? " older" : " last") + " message" + (n === 1 ? "" : "s")
                    + " shown" + (conversation.more ? " (repeat the command for older ones)" : "")]);
        });
    }

    function search(command) {
        const again = page.session.lastSearch && page.session.lastSearch.text === command.text
            && page.session.lastSearch.conversation === command.conversation;
        if (again && !page.session.lastSearch.resume) {
            page.say(["no more hits for '" + command.text + "'"]);
            return;
        }
        const body = { text: command.text, conversation: command.conversation, limit: 0 };
        if (again) {
            body.resume = page.session.lastSearch.resume;
        }
        page.session.lastSearch = { ...command, resume: "" };
        page.connection.request("searchRequest", body).answer.then((page) => {
            page.session.lastSearch.resume = page.resume || "";
            const hits = page.hits || [];
            const lines = hits.length === 0 ? ["no messages with '" + command.text + "'"] : [];
            for (const hit of hits) {
                const chat = (hit.entry && hit.entry.chat) || {};
                lines.push("  " + hit.conversation + "  [" + when(Number(chat.sentAtMillis || 0)) + "] "
                    + (chat.sender === page.session.me ? "you" : chat.sender) + ": " + chat.text);
            }
            lines.push("searched back to " + when(Number(page.searchedBackToMillis || 0))
                + (page.resume ? "; repeat the command for more" : ""));
            page.say(lines);
        }, (e) => page.problem("search: " + e.message));
    }

    function refreshOnline(show = false) {
        if (!page.session || page.connection.state.name !== "online" && !show) {
            return;
        }
        page.connection.request("onlineUsersRequest", {}).answer.then((frames) => {
            const names = new Set(frames.flatMap((f) => f.userNames || []));
            names.add(page.session.me); // this page is online, whether or not the server listed it yet
            page.session.online = [...names].sort();
            if (show) {
                page.say(["online (" + page.session.online.length + "): " + page.session.online.join(", ")]);
            }
            page.changed();
        }, (e) => {
            if (show && e.code !== "CLOSED") {
                page.problem("cannot list the users online: " + e.message);
            }
        });
    }

    /** The panel's buttons. */
    const scheduledActions = { cancel, edit, reschedule, skip };

    return { run, scheduledActions, refreshScheduled, refreshGroups, refreshOnline, armReleases };
}
