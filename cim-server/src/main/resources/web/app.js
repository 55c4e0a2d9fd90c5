/**
 * app.js: the page. Wires the login form, the input box, the panels and the connection together:
 * what the user does becomes requests (protocol.js), what the server says becomes state (chats.js),
 * and state is drawn (view.js), in batches, after each change.
 *
 *   login      the form; the password goes to the connection, which forgets it once the server
 *              gave a session token. The token lives in protocol.js's memory only: a reload asks
 *              for the password again. Log out ends the token on the server.
 *   input box  one line: a message to the open conversation, or a console command (commands.js);
 *              a bad line gets a one-line error under the messages. "Schedule" sends the box's
 *              message at the time picked beside it (the browser's time zone).
 *   panels     conversations (everyone, the user's groups, people written with) with unread
 *              counts; who is online; the open conversation, whose recent history is read when it
 *              opens; the scheduled messages, kept live by the server's news, with edit,
 *              reschedule and cancel.
 *   releases   a scheduled message of the user's due within the next minutes has a timer here
 *              that asks the server to send it at its time (the server sends it anyway, a little
 *              later, if no terminal of the user does: this is for precision, as in the console).
 *
 * Which conversation is open, and which ones the user has, is kept in sessionStorage (names only,
 * no token, no message), so a reloaded page opens where it was and draws its history again.
 */

import { Connection } from "./protocol.js";
import { parse, CommandError, HELP, conversationOf, userNameProblem } from "./commands.js";
import { Chats, ScheduledMessages, EVERYONE } from "./chats.js";
import * as view from "./view.js";
import { when, roundedDelay, inertLine, count, pickerValue } from "./text.js";

/** Scheduled messages due within this get a release timer on the page. */
const RELEASE_WINDOW_MILLIS = 10 * 60_000;
const HISTORY_PAGE = 20;

const $ = (id) => document.getElementById(id);

/** Everything of one login; dropped at logout. */
let session = null;
/** The connection, kept across a refusal (its unanswered requests wait for the next login). */
let connection = null;
let renderQueued = false;

// Logging in and out.

$("login-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const user = $("login-user").value.trim();
    const password = $("login-password").value;
    $("login-password").value = ""; // not kept in the page: the connection holds it until the token
    const problem = userNameProblem(user);
    if (problem !== null) {
        $("login-error").textContent = problem;
        return;
    }
    $("login-error").textContent = "logging in ...";
    if (!connection || connection.user.toLowerCase() !== user.toLowerCase()
            || connection.state.name === "logged-out" || connection.state.name === "logging-out") {
        connection = new Connection({ url: socketUrl(), listener, timers: connectionTimers() });
    }
    connection.start(user, password);
});

$("logout").addEventListener("click", () => {
    connection.logout();
    stopSession();
    try {
        sessionStorage.clear();
    } catch (e) {
        // storage refused: nothing was kept
    }
});

/**
 * The connection's timers: the page's own, but intervals (the heartbeat) tick from a worker
 * (heartbeat.js), which a hidden tab does not slow down to once a minute; the page's own when
 * there is no worker.
 */
function connectionTimers() {
    let worker;
    try {
        worker = new Worker("/heartbeat.js");
    } catch (e) {
        return globalThis;
    }
    const intervals = new Map();
    let last = 0;
    worker.onmessage = (event) => {
        const tick = intervals.get(event.data);
        if (tick) {
            tick();
        }
    };
    return {
        setTimeout: (fn, ms) => setTimeout(fn, ms),
        clearTimeout: (id) => clearTimeout(id),
        setInterval: (fn, ms) => {
            intervals.set(++last, fn);
            worker.postMessage({ id: last, ms });
            return last;
        },
        clearInterval: (id) => {
            if (intervals.delete(id)) {
                worker.postMessage({ id, ms: 0 });
            }
        },
    };
}

function socketUrl() {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
}

function stopSession() {
    if (session) {
        session.timers.forEach((timer) => clearInterval(timer));
        session.releases.forEach((release) => clearTimeout(release.timer));
    }
    session = null;
    for (const id of ["messages", "conversations", "online", "scheduled", "notices"]) {
        $(id).replaceChildren();
    }
    $("chat-view").hidden = true;
    $("login-view").hidden = false;
    $("logout").hidden = true;
    $("me").textContent = "";
    $("login-user").focus();
}

/** What the connection reports. */
const listener = {
    state(state) {
        view.connection($("connection"), state, Date.now());
        $("reconnect-now").hidden = state.name !== "reconnecting";
        if (state.name === "refused") {
            // The password (or an ended token) was refused: ask for it again.
            $("login-error").textContent = "login refused: " + inertLine(state.reason)
                + (session ? " (your session ended: log in again; unsent messages wait)" : "");
            $("chat-view").hidden = true;
            $("login-view").hidden = false;
            $("login-user").value = connection.user;
            $("login-password").focus();
        } else if (state.name === "reconnecting" && !session) {
            $("login-error").textContent = inertLine(state.reason) + "; trying again";
        }
        queueRender();
    },

    loggedIn(result, resent) {
        const first = !session || session.me !== result.userName;
        if (first) {
            startSession(result);
        }
        session.info = result;
        session.logins++;
        $("connection").dataset.logins = String(session.logins); // for a test: a reconnection shows
        $("login-error").textContent = "";
        $("login-view").hidden = true;
        $("chat-view").hidden = false;
        $("logout").hidden = false;
        $("me").textContent = inertLine(result.userName);
        if (result.accountCreated) {
            say(["your account " + result.userName + " was made"]);
        }
        if (resent > 0) {
            say(["sent " + count(resent, "held request") + " again"]);
        }
        // What may have changed while away: the scheduled messages, the groups, who is online.
        refreshScheduled();
        refreshGroups();
        refreshOnline();
        // The server may list this login a moment after answering it: ask again shortly.
        setTimeout(refreshOnline, 1500);
        if (first) {
            open(session.restoredConversation);
            $("input").focus();
        }
        queueRender();
    },

    delivery(chat) {
        if (!session) {
            return;
        }
        const key = session.chats.conversationOf(chat);
        const counted = key !== session.open || document.hidden;
        if (session.chats.addChat(chat, { counted }) && !session.known.has(key)) {
            session.known.add(key);
            save();
        }
        queueRender();
    },

    scheduledChange(change, answered) {
        if (!session) {
            return;
        }
        const message = session.scheduled.change(change);
        const which = "scheduled message #" + message.number + " to " + message.recipient;
        if (change.kind === "SENT") {
            session.chats.addChat({
                id: message.id, sender: session.me, recipient: message.recipient, text: message.text,
                sentAtMillis: Math.max(message.dueAt, 0),
                delay: { requestedMillis: message.requested, dueAtMillis: message.dueAt },
            });
            say([which + " was sent"]);
        } else if (change.kind === "FAILED") {
            say([which + " could not be sent: " + (change.reason || "")], "error");
        } else if (!answered) {
            const texts = {
                SCHEDULED: " was scheduled on another terminal, for " + when(message.dueAt),
                EDITED: " was changed on another terminal: now due " + when(message.dueAt),
                CANCELLED: " was cancelled on another terminal",
            };
            say([which + (texts[change.kind] || " changed")]);
        }
        armReleases();
        queueRender();
    },

    groupNews(news) {
        if (!session) {
            return;
        }
        const name = "#" + ((news.group && news.group.name) || "");
        const users = (news.users || []).map((u) => (u === session.me ? "you" : u));
        const by = news.by === session.me ? "you" : news.by || "";
        const kinds = {
            CREATED: by + " made " + name + " with " + users.join(", "),
            JOINED: users.length === 1 && news.users[0] === news.by ? users[0] + " joined " + name
                : users.join(", ") + (users.length === 1 ? " was" : " were") + " added to " + name + " by " + by,
            LEFT: users.join(", ") + " left " + name,
            REMOVED: users.join(", ") + (users.length === 1 ? " was" : " were") + " removed from " + name + " by " + by,
        };
        say([kinds[news.kind] || name + " changed"]);
        refreshGroups();
    },

    notice(text) {
        say([text]);
    },
};

function startSession(result) {
    const me = result.userName;
    let saved = {};
    try {
        saved = JSON.parse(sessionStorage.getItem("cim.page." + me) || "{}");
    } catch (e) {
        saved = {};
    }
    const known = new Set(Array.isArray(saved.conversations) ? saved.conversations.filter((c) => typeof c === "string") : []);
    session = {
        me, info: result, chats: new Chats(me), scheduled: new ScheduledMessages(), open: EVERYONE,
        restoredConversation: typeof saved.open === "string" ? saved.open : EVERYONE,
        known, groups: [], online: [], releases: new Map(), lastHistory: null, lastSearch: null,
        timers: [], logins: 0,
    };
    known.forEach((key) => session.chats.ensure(key));
    // The connection state counts down while reconnecting; who is online changes by itself.
    session.timers.push(setInterval(() => view.connection($("connection"), connection.state, Date.now()), 1000));
    session.timers.push(setInterval(refreshOnline, 30_000));
    session.timers.push(setInterval(armReleases, 60_000));
}

function save() {
    try {
        sessionStorage.setItem("cim.page." + session.me, JSON.stringify({ open: session.open, conversations: [...session.known] }));
    } catch (e) {
        // storage refused: a reload opens everyone
    }
}

// Conversations.

/** Opens a conversation ("everyone", "@bob", "#team"): clears its unread count, reads its recent history. */
function open(key) {
    if (!session) {
        return;
    }
    const conversation = session.chats.ensure(key);
    session.open = key;
    conversation.unread = 0;
    if (key !== EVERYONE && !session.known.has(key)) {
        session.known.add(key);
    }
    save();
    document.body.dataset.pane = "messages";
    if (!conversation.loaded && key !== EVERYONE) {
        conversation.loaded = true;
        history(key, "", HISTORY_PAGE);
    }
    queueRender();
}

/** Reads a page of a conversation's history (before `before`, or the newest), into the conversation. */
function history(key, before, limit) {
    const body = { conversation: key, limit };
    if (before) {
        body.before = before;
    }
    return connection.request("historyRequest", body).answer.then((page) => {
        const conversation = session.chats.ensure(key);
        const entries = page.entries || [];
        entries.forEach((entry) => session.chats.addChat(entry.chat, { position: entry.position }));
        if (entries.length > 0) {
            conversation.oldest = entries[0].position;
        }
        conversation.more = Boolean(page.more) && entries.length > 0;
        queueRender();
        return entries.length;
    }, (e) => {
        if (e.code !== "CLOSED") {
            problem(key + ": " + e.message);
        }
        return 0;
    });
}

$("older").addEventListener("click", () => {
    const conversation = session.chats.ensure(session.open);
    history(session.open, conversation.oldest, HISTORY_PAGE).then((n) => {
        if (n === 0) {
            say(["no older messages in " + session.open]);
        }
    });
});

$("open-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const word = $("open-input").value.trim();
    const name = word.replace(/^[@#]/, "");
    const problemText = word === EVERYONE ? null : userNameProblem(name);
    if (problemText !== null || !(word === EVERYONE || word.startsWith("@") || word.startsWith("#"))) {
        problem("'" + word + "' is not a conversation (expected: @user or #group)");
        return;
    }
    $("open-input").value = "";
    open(word === EVERYONE ? word : word[0] + name.toLowerCase());
});

for (const button of document.querySelectorAll("#tabs button")) {
    button.addEventListener("click", () => {
        document.body.dataset.pane = button.dataset.show;
    });
}

// What arrived in the open conversation while the tab was hidden was counted: now it is read.
document.addEventListener("visibilitychange", () => {
    if (session && !document.hidden) {
        session.chats.ensure(session.open).unread = 0;
        queueRender();
    }
});

$("reconnect-now").addEventListener("click", () => connection && connection.retryNow());
$("online-refresh").addEventListener("click", () => refreshOnline());

// The input box.

$("composer").addEventListener("submit", (event) => {
    event.preventDefault();
    const line = $("input").value;
    let command;
    try {
        command = parse(line, context());
    } catch (e) {
        if (e instanceof CommandError) {
            problem(e.message);
            return;
        }
        throw e;
    }
    problem("");
    $("input").value = "";
    run(command);
});

$("later-time").addEventListener("focus", () => {
    if (!$("later-time").value) {
        const soon = new Date(Date.now() + 5 * 60_000);
        soon.setSeconds(0, 0);
        $("later-time").value = pickerValue(soon.getTime());
    }
});

$("later-send").addEventListener("click", () => {
    const line = $("input").value;
    const picked = $("later-time").value ? new Date($("later-time").value).getTime() : NaN;
    let command;
    try {
        command = parse(line, context());
    } catch (e) {
        problem(e.message);
        return;
    }
    if (command.kind !== "send") {
        problem(command.kind === "nothing" ? "the text is missing: type the message in the box, then pick its time"
            : "Schedule sends the message in the box at the time picked: type a message, not a command");
        return;
    }
    if (Number.isNaN(picked)) {
        problem("pick the date and time to send it at");
        return;
    }
    const now = Date.now();
    if (picked <= now) {
        problem("the time picked has passed (pick a time to come)");
        return;
    }
    if (picked - now > Number(session.info.maxScheduleMillis || Infinity)) {
        problem("the time picked is more than " + roundedDelay(Number(session.info.maxScheduleMillis)) + " ahead, the maximum");
        return;
    }
    problem("");
    $("input").value = "";
    run({ kind: "at", to: command.to, text: command.text, dueAtMillis: picked });
});

function context() {
    return {
        now: Date.now(), conversation: session.open,
        maxDelayMillis: Number(session.info.maxScheduleMillis || 400 * 86_400_000),
        maxTextLength: Number(session.info.maxTextLength || 4000),
    };
}

/** Carries out a command of the input box. */
function run(command) {
    switch (command.kind) {
        case "nothing": return;
        case "send": return send(command.to, command.text);
        case "delay": return schedule(command.to, command.text, Date.now() + command.delayMillis, command.delayMillis);
        case "at": return schedule(command.to, command.text, command.dueAtMillis, Math.max(0, command.dueAtMillis - Date.now()));
        case "delays": return listScheduled();
        case "cancel": return byNumber(command.number, (m) => cancel(m).then(
            () => say(["cancelled scheduled message #" + command.number]),
            (e) => problem("cancel #" + command.number + ": " + e.message)));
        case "edit": return byNumber(command.number, (m) => edit(m, command.text).then(
            (edited) => say(["scheduled message #" + command.number + " now says: " + edited.text]),
            (e) => problem("edit #" + command.number + ": " + e.message)));
        case "move": return byNumber(command.number, (m) => {
            const due = command.dueAtMillis ?? Date.now() + command.delayMillis;
            return reschedule(m, due).then(
                (moved) => say(["scheduled message #" + command.number + " will be sent at " + when(moved.dueAt)]),
                (e) => problem("move #" + command.number + ": " + e.message));
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
        case "help": return say(HELP);
        case "logout": return $("logout").click();
        default: return problem("cannot do " + command.kind + " here");
    }
}

function send(to, text) {
    const key = conversationOf(to);
    const { id, answer } = connection.request("send", { recipient: to, text });
    const message = session.chats.addOwn(key, connection.messageId(id), to, text, Date.now());
    if (key !== EVERYONE) {
        session.known.add(key);
    }
    if (session.open !== key) {
        open(key);
    }
    answer.then((receipt) => {
        const outcomes = { DELIVERED: "delivered", STORED: "stored", POSTED: "posted", HANDLED_EARLIER: "delivered" };
        message.state = outcomes[receipt.outcome] || "delivered";
        if (receipt.outcome === "STORED" && !to.startsWith("#")) {
            say([(receipt.storedFor || to) + " is offline: the message waits in their inbox for their next login"]);
        }
        queueRender();
    }, (e) => {
        message.state = "refused";
        message.reason = e.message;
        if (e.code !== "CLOSED") {
            problem(e.message.startsWith("not sent") ? e.message : "not sent: " + e.message);
        }
        queueRender();
    });
    queueRender();
}

function schedule(to, text, dueAt, requested) {
    const { answer } = connection.request("schedule", {
        recipient: to, text, dueAtMillis: String(dueAt), requestedMillis: String(Math.max(0, Math.round(requested))),
    });
    if (connection.state.name !== "online") {
        say(["(not connected: this is done when the connection is back)"]);
    }
    answer.then((change) => {
        const m = change.message || {};
        const due = Number(m.dueAtMillis || dueAt);
        say(["scheduled message #" + m.number + " to " + m.recipient + " will be sent at " + when(due) + " (in "
            + roundedDelay(due - Date.now()) + "); it is kept by the server"]);
    }, (e) => problem(e.message.startsWith("not scheduled") ? e.message : "not scheduled: " + e.message));
}

function cancel(message) {
    return connection.request("cancel", { id: message.id }).answer;
}

function edit(message, text) {
    if (!text.trim()) {
        return Promise.reject(new Error("the text is missing"));
    }
    if (text.length > Number(session.info.maxTextLength || 4000)) {
        return Promise.reject(new Error("the message is " + text.length + " characters long; the maximum is "
            + session.info.maxTextLength));
    }
    return connection.request("edit", { id: message.id, text }).answer.then((change) => session.scheduled.change(change));
}

function reschedule(message, dueAt) {
    const now = Date.now();
    if (dueAt <= now) {
        return Promise.reject(new Error("that time has passed (pick a time to come)"));
    }
    return connection.request("edit", {
        id: message.id, dueAtMillis: String(dueAt), requestedMillis: String(dueAt - now),
    }).answer.then((change) => session.scheduled.change(change));
}

/** The panel's buttons. */
const scheduledActions = { cancel, edit, reschedule };

function byNumber(number, action) {
    const message = session.scheduled.byNumber(number);
    if (!message) {
        problem("no scheduled message #" + number + " (sent or cancelled already? :delays lists them)");
        return;
    }
    action(message);
}

function refreshScheduled() {
    return connection.request("listScheduled", { dueBeforeMillis: "0" }).answer.then((frames) => {
        session.scheduled.reset(frames.flatMap((f) => f.messages || []));
        armReleases();
        queueRender();
        return session.scheduled.ordered();
    }, (e) => {
        if (e.code !== "CLOSED") {
            problem("cannot list the scheduled messages: " + e.message);
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
            say(["no scheduled messages"]);
            return;
        }
        say([count(messages.length, "scheduled message") + ":"].concat(messages.map((m) =>
            "  #" + m.number + "  " + when(m.dueAt) + "  to " + m.recipient + "  " + m.text)));
    });
}

/**
 * Holds a timer for each scheduled message due within the window, which asks the server to send it
 * at its time; drops the timers of messages no longer scheduled or moved.
 */
function armReleases() {
    if (!session) {
        return;
    }
    const now = Date.now();
    const wanted = new Map(session.scheduled.ordered().filter((m) => m.dueAt - now <= RELEASE_WINDOW_MILLIS)
        .map((m) => [m.id, m]));
    for (const [id, release] of session.releases) {
        const m = wanted.get(id);
        if (!m || m.dueAt !== release.dueAt) {
            clearTimeout(release.timer);
            session.releases.delete(id);
        }
    }
    for (const m of wanted.values()) {
        if (!session.releases.has(m.id)) {
            const timer = setTimeout(() => {
                session.releases.delete(m.id);
                // Sent already by the server or another terminal, or not due by the server's clock
                // (it then sends it itself): nothing to say.
                connection.request("release", { id: m.id }).answer.catch(() => { });
            }, Math.max(0, m.dueAt - now));
            session.releases.set(m.id, { dueAt: m.dueAt, timer });
        }
    }
}

// Groups.

function group(action, what, success, openAfter = null) {
    connection.request("groupRequest", action).answer.then((frames) => {
        const reply = frames[0] || {};
        const g = (reply.groups || [])[0] || { name: "", memberCount: 0 };
        say([success(g)].concat((reply.refused || []).map((r) => "not added: " + r)));
        refreshGroups();
        if (openAfter) {
            open(openAfter);
        }
    }, (e) => problem(what + ": " + e.message));
}

function refreshGroups(show = false) {
    return connection.request("groupRequest", { list: {} }).answer.then((frames) => {
        const groups = frames.flatMap((f) => f.groups || []);
        session.groups = groups;
        const names = new Set(groups.map((g) => "#" + g.name));
        for (const g of groups) {
            session.chats.ensure("#" + g.name).group = g;
        }
        for (const conversation of session.chats.conversations.values()) {
            if (conversation.key.startsWith("#") && !names.has(conversation.key)) {
                conversation.group = null; // left, or ended: its messages stay, the count goes
            }
        }
        queueRender();
        return groups;
    }, (e) => {
        if (show && e.code !== "CLOSED") {
            problem("cannot list your groups: " + e.message);
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
            say(["you are in no group (:create #name makes one)"]);
            return;
        }
        say(["your groups (" + groups.length + "):"].concat(groups.map((g) => "  #" + g.name + "  "
            + count(g.memberCount || 0, "member") + (g.open ? ", open" : "") + ", owner "
            + (g.owner === session.me ? "you" : g.owner))));
    });
}

function members(name) {
    connection.request("groupRequest", { members: name }).answer.then((frames) => {
        const names = frames.flatMap((f) => ((f.groups || [])[0] || {}).members || []);
        say(["#" + name + " (" + names.length + "): " + names.join(", ")]);
    }, (e) => problem("members of #" + name + ": " + e.message));
}

// History, search, who is online.

function historyCommand(command) {
    const again = session.lastHistory && session.lastHistory.conversation === command.conversation
        && session.lastHistory.count === command.count;
    session.lastHistory = command;
    const conversation = session.chats.ensure(command.conversation);
    if (again && !conversation.more) {
        say(["no older messages in " + command.conversation]);
        return;
    }
    conversation.loaded = true;
    open(command.conversation);
    history(command.conversation, again ? conversation.oldest : "", command.count).then((n) => {
        say([n === 0 ? "no " + (again ? "older " : "") + "messages in " + command.conversation
            : command.conversation + ", " + n + (again ? " older" : " last") + " message" + (n === 1 ? "" : "s")
                + " shown" + (conversation.more ? " (repeat the command for older ones)" : "")]);
    });
}

function search(command) {
    const again = session.lastSearch && session.lastSearch.text === command.text
        && session.lastSearch.conversation === command.conversation;
    if (again && !session.lastSearch.resume) {
        say(["no more hits for '" + command.text + "'"]);
        return;
    }
    const body = { text: command.text, conversation: command.conversation, limit: 0 };
    if (again) {
        body.resume = session.lastSearch.resume;
    }
    session.lastSearch = { ...command, resume: "" };
    connection.request("searchRequest", body).answer.then((page) => {
        session.lastSearch.resume = page.resume || "";
        const hits = page.hits || [];
        const lines = hits.length === 0 ? ["no messages with '" + command.text + "'"] : [];
        for (const hit of hits) {
            const chat = (hit.entry && hit.entry.chat) || {};
            lines.push("  " + hit.conversation + "  [" + when(Number(chat.sentAtMillis || 0)) + "] "
                + (chat.sender === session.me ? "you" : chat.sender) + ": " + chat.text);
        }
        lines.push("searched back to " + when(Number(page.searchedBackToMillis || 0))
            + (page.resume ? "; repeat the command for more" : ""));
        say(lines);
    }, (e) => problem("search: " + e.message));
}

function refreshOnline(show = false) {
    if (!session || connection.state.name !== "online" && !show) {
        return;
    }
    connection.request("onlineUsersRequest", {}).answer.then((frames) => {
        const names = new Set(frames.flatMap((f) => f.userNames || []));
        names.add(session.me); // this page is online, whether or not the server listed it yet
        session.online = [...names].sort();
        if (show) {
            say(["online (" + session.online.length + "): " + session.online.join(", ")]);
        }
        queueRender();
    }, (e) => {
        if (show && e.code !== "CLOSED") {
            problem("cannot list the users online: " + e.message);
        }
    });
}

// Drawing.

function say(lines, kind = "info") {
    view.notice($("notices"), lines, kind);
}

function problem(text) {
    $("command-error").textContent = text ? "error: " + inertLine(text) : "";
}

function queueRender() {
    if (!renderQueued) {
        renderQueued = true;
        setTimeout(render, 0);
    }
}

function render() {
    renderQueued = false;
    if (!session) {
        return;
    }
    const now = Date.now();
    const list = session.chats.list();
    view.conversations($("conversations"), list, session.open, open);
    const unread = list.reduce((sum, c) => sum + c.unread, 0);
    $("tab-unread").textContent = String(unread);
    $("tab-unread").hidden = unread === 0;
    $("conversation-title").textContent = inertLine(session.open);
    const conversation = session.chats.ensure(session.open);
    $("older").hidden = session.open === EVERYONE || !conversation.more;
    view.messages($("messages"), session.chats.ordered(session.open), session.me, now);
    view.online($("online"), session.online, session.me, open);
    $("online-count").textContent = "(" + session.online.length + ")";
    const scheduled = session.scheduled.ordered();
    view.scheduled($("scheduled"), scheduled, now, scheduledActions);
    $("scheduled-count").textContent = view.scheduledCount(scheduled.length);
    $("tab-scheduled").textContent = view.scheduledCount(scheduled.length);
    $("scheduled-empty").hidden = scheduled.length > 0;
    document.title = (unread > 0 ? "(" + unread + ") " : "") + "cim";
}
