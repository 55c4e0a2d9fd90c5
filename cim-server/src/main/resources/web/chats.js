/**
 * chats.js: what the page knows of the user's conversations, and of their scheduled messages.
 * Plain data, no DOM, no connection: app.js fills it, view.js draws it.
 *
 * A conversation is "everyone", "@bob" (the private one with bob) or "#team". Each holds its
 * messages by "sender/id" (so a message shown from history and delivered again is one message),
 * ordered by the time the server gave them, the page's own unconfirmed ones at the time they were
 * typed; the count of messages not read; and where its history was read back to.
 *
 * A message: {key, id, sender, recipient, text, sentAt, delay (the Chat's, or null), mine,
 * state}. The states of the user's own messages: "pending" (not confirmed by the server: shown
 * marked, sent again after each login), "delivered", "stored" (in the recipient's inbox),
 * "posted" (in a group's log), "refused" (with `reason`). Received ones are "received".
 */

export const EVERYONE = "everyone";

export class Chats {
    constructor(me) {
        this.me = me;
        this.conversations = new Map();
        this.ensure(EVERYONE);
    }

    /** The conversation `key`, made (empty) if it was not known. */
    ensure(key) {
        let conversation = this.conversations.get(key);
        if (!conversation) {
            conversation = { key, messages: new Map(), unread: 0, oldest: "", more: true, loaded: false, group: null };
            this.conversations.set(key, conversation);
        }
        return conversation;
    }

    /** The conversation a Chat belongs to, seen by this user. */
    conversationOf(chat) {
        if (chat.recipient === EVERYONE || chat.recipient.startsWith("#")) {
            return chat.recipient;
        }
        return "@" + (chat.sender === this.me ? chat.recipient : chat.sender);
    }

    /**
     * Adds a message from the server (a Delivery or a history entry); returns it, or null when the
     * conversation had it already (it is then brought up to date, from pending to confirmed).
     */
    addChat(chat, { counted = false, position = "" } = {}) {
        const conversation = this.ensure(this.conversationOf(chat));
        const key = chat.sender + "/" + chat.id;
        const known = conversation.messages.get(key);
        if (known) {
            if (known.state === "pending") {
                known.state = "delivered";
            }
            known.sentAt = Number(chat.sentAtMillis || known.sentAt);
            return null;
        }
        const message = {
            key, id: chat.id, sender: chat.sender, recipient: chat.recipient, text: chat.text || "",
            sentAt: Number(chat.sentAtMillis || 0), delay: chat.delay || null, position,
            mine: chat.sender === this.me, state: chat.sender === this.me ? "delivered" : "received",
        };
        conversation.messages.set(key, message);
        if (counted && !message.mine) {
            conversation.unread++;
        }
        return message;
    }

    /** A message this page sends: shown at once, marked until the server confirms it. */
    addOwn(conversationKey, id, recipient, text, now) {
        const message = {
            key: this.me + "/" + id, id, sender: this.me, recipient, text, sentAt: now, delay: null,
            position: "", mine: true, state: "pending",
        };
        this.ensure(conversationKey).messages.set(message.key, message);
        return message;
    }

    /** The messages of a conversation, oldest first. */
    ordered(key) {
        return [...this.ensure(key).messages.values()].sort((a, b) => a.sentAt - b.sentAt);
    }

    /** The conversations for the list: everyone first, then groups, then people, each by name. */
    list() {
        const rank = (key) => (key === EVERYONE ? 0 : key.startsWith("#") ? 1 : 2);
        return [...this.conversations.values()].sort((a, b) => rank(a.key) - rank(b.key) || a.key.localeCompare(b.key));
    }
}

/**
 * The user's scheduled messages as the server holds them, by id: one-off ones, "when online" ones
 * and recurring series (one entry per series, at its next occurrence). Also the zones of the
 * recipients as the server's last list gave them, so that a message scheduled since keeps showing
 * its recipient's time.
 */
export class ScheduledMessages {
    constructor() {
        this.byId = new Map();
        this.zones = new Map(); // recipient (a user) -> their zone, "" for none
    }

    /** Replaces everything with the server's list (Scheduled messages). */
    reset(messages) {
        this.byId = new Map(messages.map((m) => [m.id, scheduledOf(m)]));
        this.zones = new Map();
        for (const m of this.byId.values()) {
            if (isUser(m.recipient)) {
                this.zones.set(m.recipient, m.recipientZone);
            }
        }
    }

    /**
     * A ScheduledChange: SCHEDULED and EDITED keep it, the others drop it; a series that goes on
     * (SENT, FAILED, DROPPED or SKIPPED with a `next`) is kept at its next occurrence. Returns the
     * message as it is now (the next occurrence when there is one).
     */
    change(change) {
        let message = this.withZone(scheduledOf(change.message || {}));
        if (change.kind === "SCHEDULED" || change.kind === "EDITED") {
            this.byId.set(message.id, message);
        } else {
            this.byId.delete(message.id);
            if (change.next) {
                message = this.withZone(scheduledOf(change.next));
                this.byId.set(message.id, message);
            }
        }
        return message;
    }

    /** True when the zone of `recipient` (a user) is not known: the server's list says it. */
    zoneUnknown(recipient) {
        return isUser(recipient) && !this.zones.has(recipient);
    }

    withZone(message) {
        if (!message.recipientZone) {
            message.recipientZone = this.zones.get(message.recipient) || "";
        }
        return message;
    }

    byNumber(number) {
        return [...this.byId.values()].find((m) => m.number === number);
    }

    /** Soonest first; those waiting for a login last. */
    ordered() {
        return [...this.byId.values()].sort((a, b) => a.dueAt - b.dueAt || a.number - b.number);
    }
}

/** The due time of a "when online" message without a deadline: 2^63 - 1, as Number reads it. */
const NEVER = 2 ** 63;

/**
 * A Scheduled of the JSON mapping with its numbers as numbers, and what its Timing says:
 * whenOnline (then deadline: epoch millis or null), recurring (with its rule, until, times, zone),
 * lateLimit (the late policy, 0 for none), occurrence, recipientZone.
 */
export function scheduledOf(m) {
    const timing = m.timing || {};
    const dueAt = Number(m.dueAtMillis || 0);
    const whenOnline = Boolean(timing.whenOnline);
    return {
        id: m.id || "", number: Number(m.number || 0), recipient: m.recipient || "", text: m.text || "",
        dueAt, requested: Number(m.requestedMillis || 0), whenOnline,
        deadline: whenOnline && dueAt > 0 && dueAt < NEVER ? dueAt : null,
        recurring: Boolean(timing.every), every: timing.every || "", until: Number(timing.untilMillis || 0),
        times: Number(timing.times || 0), zone: timing.zone || "", at: timing.at || "", atZone: timing.atZone || "",
        lateLimit: Number(timing.dropLateAfterMillis || 0), occurrence: Number(m.occurrence || 0),
        recipientZone: m.recipientZone || "",
    };
}

function isUser(recipient) {
    return recipient !== "" && recipient !== EVERYONE && !recipient.startsWith("#");
}
