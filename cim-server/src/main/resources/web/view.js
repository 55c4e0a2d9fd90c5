/**
 * view.js: draws the page's state into the DOM. Every string goes in with textContent (through
 * inert() for text from the network), every element is made with createElement: nothing is ever
 * parsed as HTML, whatever a message contains. No inline styles (the page's policy forbids them):
 * looks are classes and data- attributes that style.css reads.
 *
 * Lists are kept, not redrawn: an item is found again by its data-key and brought up to date, so
 * that a scheduled message's open editor survives a change made on another terminal.
 */

import { inert, inertLine, roundedDelay, when, pickerValue, dueText, ruleText, zoneTime } from "./text.js";

/** An element with classes and, optionally, text. */
export function el(tag, className = "", text = null) {
    const element = document.createElement(tag);
    if (className) {
        element.className = className;
    }
    if (text !== null) {
        element.textContent = text;
    }
    return element;
}

/**
 * Brings `parent`'s children to `items`, in order: the child of each item's key is made by
 * `make(item)` the first time and passed to `update(child, item)` every time; others go.
 */
export function reconcile(parent, items, keyOf, make, update) {
    const existing = new Map();
    for (const child of [...parent.children]) {
        existing.set(child.dataset.key, child);
    }
    let previous = null;
    for (const item of items) {
        const key = keyOf(item);
        let child = existing.get(key);
        if (child) {
            existing.delete(key);
        } else {
            child = make(item);
            child.dataset.key = key;
        }
        update(child, item);
        const expected = previous ? previous.nextSibling : parent.firstChild;
        if (child !== expected) {
            parent.insertBefore(child, expected);
        }
        previous = child;
    }
    existing.forEach((child) => child.remove());
}

const STATE_TEXT = {
    pending: "not confirmed by the server yet: sent again when connected",
    delivered: "delivered",
    stored: "waits in the recipient's inbox",
    posted: "in the group",
    refused: "refused",
};

/** Draws the messages of the open conversation. */
export function messages(list, items, me, now) {
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    reconcile(list, items, (m) => m.key, () => {
        const item = el("li", "message");
        item.dataset.test = "message";
        item.append(el("time", "time"), el("span", "who"), el("span", "delayed"), el("span", "text"), el("span", "mark"));
        return item;
    }, (item, m) => {
        item.classList.toggle("mine", m.mine);
        item.classList.toggle("is-delayed", m.delay !== null);
        item.dataset.state = m.state;
        item.dataset.id = m.id;
        item.querySelector(".time").textContent = when(m.sentAt, now);
        let who = m.mine ? "you" : inertLine(m.sender);
        if (m.recipient.startsWith("#")) {
            who += " in " + inertLine(m.recipient);
        } else if (m.recipient !== "everyone") {
            who += " to " + (m.recipient === me ? "you" : inertLine(m.recipient));
        }
        item.querySelector(".who").textContent = who;
        const delayed = item.querySelector(".delayed");
        delayed.textContent = delayMark(m.delay);
        delayed.title = delayTitle(m.delay, now);
        item.querySelector(".text").textContent = inert(m.text);
        const mark = item.querySelector(".mark");
        mark.textContent = m.mine ? (m.state === "refused" ? "not sent: " + inertLine(m.reason || "refused")
            : m.state === "pending" ? "not confirmed" : "\u2713") : "";
        mark.title = m.mine ? STATE_TEXT[m.state] || "" : "";
        mark.dataset.test = m.state === "pending" ? "unconfirmed" : "mark";
    });
    if (atBottom) {
        list.scrollTop = list.scrollHeight;
    }
}

/**
 * The mark of a message that was scheduled: "when online" (held until its recipient logged in),
 * "#3 of a series" (an occurrence of a recurring message), else "delayed 5s".
 */
function delayMark(delay) {
    if (!delay) {
        return "";
    }
    if (delay.whenOnline) {
        return "when online";
    }
    const occurrence = Number(delay.occurrence || 0);
    if (occurrence > 0) {
        const missed = Number(delay.missed || 0);
        return "#" + occurrence + " of a series" + (missed > 0 ? ", " + missed + " missed" : "");
    }
    return "delayed " + roundedDelay(Number(delay.requestedMillis || 0));
}

function delayTitle(delay, now) {
    if (!delay) {
        return "";
    }
    const by = delay.firedByServer ? ", sent by the server" : "";
    if (delay.whenOnline) {
        return "held until the recipient logged in" + by;
    }
    return "scheduled for " + when(Number(delay.dueAtMillis || 0), now) + by
        + (Number(delay.missed || 0) > 0 ? "; occurrences missed while the server was down were not sent" : "");
}

/** Draws the conversation list with unread counts; `onOpen(key)` when one is chosen. */
export function conversations(list, items, open, onOpen) {
    reconcile(list, items, (c) => c.key, (c) => {
        const item = el("li");
        const button = el("button", "conversation");
        button.type = "button";
        button.dataset.test = "conversation";
        button.append(el("span", "name"), el("span", "unread"));
        button.addEventListener("click", () => onOpen(item.dataset.key));
        item.append(button);
        return item;
    }, (item, c) => {
        const button = item.firstChild;
        button.dataset.conversation = c.key;
        button.classList.toggle("open", c.key === open);
        button.querySelector(".name").textContent = inertLine(c.key) + (c.group ? " (" + c.group.memberCount + ")" : "");
        const unread = button.querySelector(".unread");
        unread.textContent = c.unread > 0 ? String(c.unread) : "";
        unread.hidden = c.unread === 0;
        unread.dataset.test = "unread";
    });
}

/** Draws who is online; `onOpen("@name")` when one is chosen. */
export function online(list, users, me, onOpen) {
    reconcile(list, users, (u) => u, (u) => {
        const item = el("li");
        const button = el("button", "user", inertLine(u) + (u === me ? " (you)" : ""));
        button.type = "button";
        button.addEventListener("click", () => onOpen("@" + u));
        item.append(button);
        return item;
    }, () => { });
}

/**
 * Draws the scheduled messages: each with its due time (or "when bob logs in"), its recipient's
 * time when they set a zone, a series' rule and next occurrence, and its late policy. `actions`
 * has edit(message, text), reschedule(message, millis), cancel(message) and skip(message); each
 * returns a promise, and the editor shows its refusal. A "when online" message and a series have
 * no Reschedule (their times are not a picked time); a series has Skip.
 */
export function scheduled(list, items, now, actions) {
    reconcile(list, items, (m) => m.id, () => scheduledItem(actions), (item, m) => {
        item.message = m;
        item.dataset.number = String(m.number);
        item.dataset.kind = m.whenOnline ? "online" : m.recurring ? "series" : "once";
        item.querySelector(".number").textContent = "#" + m.number;
        const due = item.querySelector(".due");
        due.textContent = dueText(m, now);
        due.dateTime = m.whenOnline ? "" : new Date(m.dueAt).toISOString();
        due.dataset.due = m.whenOnline ? "" : String(m.dueAt);
        const their = item.querySelector(".their");
        their.hidden = m.whenOnline || !m.recipientZone;
        their.textContent = their.hidden ? "" : zoneTime(m.dueAt, m.recipientZone, now) + " their time ("
            + inertLine(m.recipientZone) + ")";
        item.querySelector(".recipient").textContent = "to " + inertLine(m.recipient);
        const rule = item.querySelector(".rule");
        rule.hidden = !m.recurring && !m.lateLimit;
        rule.textContent = [m.recurring ? inertLine(ruleText(m, now)) + "; next: occurrence " + m.occurrence
            + (m.times ? " of " + m.times : "") : "", m.lateLimit ? "dropped if more than " + roundedDelay(m.lateLimit)
            + " late" : ""].filter((t) => t).join("; ");
        item.querySelector(".text").textContent = inert(m.text);
        item.querySelector("[data-test=reschedule]").hidden = m.whenOnline || m.recurring;
        item.querySelector("[data-test=skip]").hidden = !m.recurring;
    });
}

function scheduledItem(actions) {
    const item = el("li", "scheduled");
    item.dataset.test = "scheduled";
    const due = el("time", "due");
    due.dataset.test = "due";
    const text = el("span", "text");
    text.dataset.test = "scheduled-text";
    const buttons = el("span", "actions");
    const editor = el("form", "editor");
    editor.hidden = true;
    const field = el("input");
    const save = el("button", "small", "Save");
    const close = el("button", "small", "Close");
    close.type = "button";
    const problem = el("p", "problem");
    problem.setAttribute("role", "alert");
    editor.append(field, save, close, problem);
    const open = (mode) => {
        editor.dataset.mode = mode;
        editor.hidden = false;
        problem.textContent = "";
        if (mode === "edit") {
            field.type = "text";
            field.value = item.message.text;
            field.dataset.test = "edit-text";
        } else {
            field.type = "datetime-local";
            field.step = "1";
            field.value = pickerValue(item.message.dueAt);
            field.dataset.test = "reschedule-time";
        }
        field.focus();
    };
    const refused = (what) => (e) => {
        problem.textContent = "cannot " + what + ": " + inertLine(e.message);
        editor.hidden = false;
    };
    for (const [label, test, action] of [["Edit", "edit", () => open("edit")],
        ["Reschedule", "reschedule", () => open("reschedule")],
        ["Skip", "skip", () => actions.skip(item.message).catch(refused("skip"))],
        ["Cancel", "cancel", () => actions.cancel(item.message).catch(refused("cancel"))]]) {
        const button = el("button", "small", label);
        button.type = "button";
        button.dataset.test = test;
        button.addEventListener("click", action);
        buttons.append(button);
    }
    save.dataset.test = "save";
    close.addEventListener("click", () => {
        editor.hidden = true;
    });
    editor.addEventListener("submit", (event) => {
        event.preventDefault();
        const mode = editor.dataset.mode;
        let done;
        if (mode === "edit") {
            done = actions.edit(item.message, field.value);
        } else {
            const millis = field.value ? new Date(field.value).getTime() : NaN;
            done = Number.isNaN(millis) ? Promise.reject(new Error("pick a date and time"))
                : actions.reschedule(item.message, millis);
        }
        done.then(() => {
            editor.hidden = true;
        }, (e) => {
            problem.textContent = inertLine(e.message);
        });
    });
    const their = el("span", "their");
    their.dataset.test = "their-time";
    const rule = el("span", "rule");
    rule.dataset.test = "rule";
    item.append(el("span", "number"), due, their, el("span", "recipient"), rule, text, buttons, editor);
    return item;
}

/** Shows the connection's state: what it is, and when the next attempt comes. */
export function connection(element, state, now) {
    element.dataset.state = state.name;
    const texts = {
        idle: "not connected",
        connecting: state.attempt > 1 ? "connecting (attempt " + state.attempt + ")" : "connecting",
        online: "online",
        refused: "not logged in: " + inertLine(state.reason || ""),
        "logging-out": "logging out",
        "logged-out": state.revoked ? "logged out (the session is ended on the server)" : "logged out",
    };
    if (state.name === "reconnecting") {
        const seconds = Math.max(0, Math.ceil((state.retryAt - now) / 1000));
        element.textContent = "reconnecting in " + seconds + " s: " + inertLine(state.reason || "");
    } else {
        element.textContent = texts[state.name] || state.name;
    }
}

/** Adds lines to the notices (what commands answer), keeping the last few dozen. */
export function notice(container, lines, kind = "info") {
    const block = el("div", "notice " + kind);
    block.dataset.test = "notice";
    for (const line of lines) {
        block.append(el("div", "", inert(line)));
    }
    container.append(block);
    while (container.children.length > 30) {
        container.firstChild.remove();
    }
    container.scrollTop = container.scrollHeight;
}

/** "3 scheduled", for the panel's title and tab. */
export function scheduledCount(n) {
    return n === 0 ? "" : String(n);
}
