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
 *   commands   carried out by actions.js, which says their outcome through say() and problem().
 *
 * Which conversation is open, and which ones the user has, is kept in sessionStorage (names only,
 * no token, no message), so a reloaded page opens where it was and draws its history again.
 */

import { Connection } from "./protocol.js";
import { parse, CommandError, userNameProblem } from "./commands.js";
import { Chats, ScheduledMessages, EVERYONE, scheduledOf } from "./chats.js";
import { createActions } from "./actions.js";
import * as view from "./view.js";
import { when, roundedDelay, inertLine, count, pickerValue, dueText } from "./text.js";
import { browserZone } from "./times.js";

const HISTORY_PAGE = 20;

const $ = (id) => document.getElementById(id);

/** Everything of one login; dropped at logout. */
let session = null;
/** The connection, kept across a refusal (its unanswered requests wait for the next login). */
let connection = null;
let renderQueued = false;

const actions = createActions({
    get session() {
        return session;
    },
    get connection() {
        return connection;
    },
    say, problem, changed: queueRender, open, history,
    logout: () => $("logout").click(),
});
const { run, scheduledActions, refreshScheduled, refreshGroups, refreshOnline, armReleases } = actions;

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
        session.zone = (result.settings && result.settings.zone) || "";
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
        const done = scheduledOf(change.message || {}); // for SENT, FAILED, DROPPED: the occurrence done with
        const which = (done.recurring ? "recurring message #" : "scheduled message #") + done.number + " to "
            + done.recipient + (done.recurring ? " (occurrence " + done.occurrence + ")" : "");
        const goesOn = change.next ? "; next: occurrence " + message.occurrence + " at " + when(message.dueAt)
            : done.recurring ? "; the series has ended" : "";
        if (change.kind === "SENT") {
            const now = Date.now();
            session.chats.addChat({
                id: done.recurring ? done.id + "." + done.occurrence : done.id, sender: session.me,
                recipient: done.recipient, text: done.text,
                sentAtMillis: done.whenOnline ? now : Math.max(Math.min(done.dueAt, now), 0),
                delay: {
                    requestedMillis: done.requested, dueAtMillis: done.dueAt, occurrence: done.occurrence,
                    whenOnline: done.whenOnline,
                },
            });
            say([which + " was sent" + (change.reason ? " (" + change.reason + ")" : "") + goesOn]);
        } else if (change.kind === "FAILED" || change.kind === "DROPPED") {
            say([which + (change.kind === "FAILED" ? " could not be sent: " : " was dropped: ") + (change.reason || "")
                + goesOn], "error");
        } else if (!answered) {
            const texts = {
                SCHEDULED: " was scheduled on another terminal, " + (message.whenOnline ? "to go " : "for ")
                    + dueText(message),
                EDITED: " was changed on another terminal: now due " + dueText(message),
                CANCELLED: " was cancelled on another terminal",
                SKIPPED: change.next ? ": an occurrence was skipped on another terminal" + goesOn
                    : ": its last occurrence was skipped on another terminal; the series has ended",
            };
            say([which + (texts[change.kind] || " changed")]);
        }
        if (change.kind === "SCHEDULED" && session.scheduled.zoneUnknown(message.recipient)) {
            refreshScheduled(); // the list says the recipient's zone, to show their time
        }
        armReleases();
        queueRender();
    },

    settings(settings) {
        if (!session) {
            return;
        }
        session.zone = settings.zone || "";
        say(["your time zone was set to " + (session.zone || "none") + " on another terminal"]);
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
        timers: [], logins: 0, zone: "",
    };
    known.forEach((key) => session.chats.ensure(key));
    // Who is online changes by itself.
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

// The connection's state counts down while it waits to reconnect (before a first login too).
setInterval(() => {
    if (connection && connection.state.name === "reconnecting") {
        view.connection($("connection"), connection.state, Date.now());
    }
}, 1000);
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
        zone: session.zone || browserZone(),
    };
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
