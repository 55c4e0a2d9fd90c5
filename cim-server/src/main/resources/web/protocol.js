/**
 * protocol.js: the page's connection to the cim server, kept up. No DOM: app.js listens to it.
 *
 * One WebSocket to /ws, subprotocol cim.json: each text message is one Envelope of cim.proto in
 * proto3's JSON mapping (lowerCamelCase names, 64-bit integers as decimal strings, enums by name,
 * a oneof as its one field), stamped with PROTOCOL_VERSION. What it does, as the Java client
 * library does (docs/protocol.md):
 *
 *   login      with the password until the server gives a session token, then with the token
 *              (the password is then forgotten); a refused token falls back to the password while
 *              it is still known, else the page must ask for it again ("refused")
 *   origin     a random non-zero 64-bit number per page load; requests are numbered 1, 2, 3 ...
 *              within it, and a Send's number is its message's sequence: id "<origin hex>-<n>"
 *   requests   kept until answered (Receipt, Receipts, ScheduledChange, the last frame of a paged
 *              reply, HistoryPage, SearchPage, SentList, AccountSettings, or an ErrorReply with the
 *              same request id), and
 *              written again after every login, in order, under their first number: the server
 *              routes a message id once and answers a repeat with the first outcome
 *   deliveries counted per connection; one already shown (by "sender/id") is dropped, and after
 *              each batch (the messages of one turn of the event loop) the count is acknowledged
 *   heartbeat  a Ping every heartbeatIntervalMillis; a server silent for two intervals is left
 *   reconnect  after any loss, after a jittered exponential backoff (GoAway: a random wait within
 *              the spread it asks for, before login at least the backoff; a throttled login: the
 *              wait the server names)
 *   logout     ends the session token on the server, which then closes; nothing reconnects
 *
 * States (state.name): "idle", "connecting", "online", "reconnecting" (retryAt set),
 * "refused" (the page must ask for the password), "logging-out", "logged-out" (revoked: the
 * server said it ended the session).
 *
 * Everything that touches the outside comes in through the constructor (the socket factory,
 * timers, the clock, randomness), so the machine can be driven by a test without a server.
 */

export const PROTOCOL_VERSION = 5;
const SUBPROTOCOL = "cim.json";
/** The ping interval until the server says its own. */
const FIRST_HEARTBEAT_MILLIS = 5_000;
/** How many message ids are remembered to drop repeats (as the Java client keeps). */
const SEEN_IDS = 10_000;
/** The replies that may come in several frames, the last with more = false. */
const PAGED = new Set(["scheduledList", "onlineUsersReply", "groupReply"]);

/** A refusal from the server (ErrorReply), or a request the connection gave up on. */
export class Refusal extends Error {
    constructor(code, message, retryAfterMillis = 0) {
        super(message);
        this.code = code;
        this.retryAfterMillis = retryAfterMillis;
    }
}

/** Waits that grow exponentially, with jitter so that many pages do not come back at once. */
export class Backoff {
    constructor(initialMillis = 500, maxMillis = 15_000, random = Math.random) {
        this.initial = initialMillis;
        this.max = maxMillis;
        this.random = random;
        this.attempt = 0;
    }

    /** The next wait: half the exponential step plus a random part of the other half. */
    next() {
        const step = Math.min(this.max, this.initial * 2 ** Math.min(this.attempt, 20));
        this.attempt++;
        return Math.round(step / 2 + this.random() * step / 2);
    }

    reset() {
        this.attempt = 0;
    }
}

/** A random origin: 64 bits, not zero. */
export function newOrigin(crypto = globalThis.crypto) {
    const words = new BigUint64Array(1);
    do {
        crypto.getRandomValues(words);
    } while (words[0] === 0n);
    return words[0];
}

export class Connection {
    /**
     * @param options {url: the WebSocket's address (ws://host/ws),
     *                 listener: {state(state), loggedIn(result, resent), delivery(chat),
     *                            scheduledChange(change, answered), groupNews(news), notice(text)},
     *                 openSocket(url, subprotocol) (default: new WebSocket), timers (setTimeout,
     *                 clearTimeout, setInterval, clearInterval), now() (epoch millis), random(),
     *                 origin (BigInt)}
     */
    constructor(options) {
        this.url = options.url;
        this.listener = options.listener;
        this.openSocket = options.openSocket || ((url, protocol) => new WebSocket(url, protocol));
        this.timers = options.timers || globalThis;
        this.now = options.now || Date.now;
        this.random = options.random || Math.random;
        this.origin = options.origin || newOrigin();
        this.originHex = this.origin.toString(16).padStart(16, "0");
        this.backoff = new Backoff(500, 15_000, this.random);
        this.state = { name: "idle" };
        this.pending = new Map(); // request id -> {id, kind, envelope, resolve, reject, parts}
        this.lastId = 0;
        this.seen = new Set();
        this.socket = null;
        this.user = "";
        this.password = "";
        this.token = "";
        this.loginInfo = null;
    }

    /** The id a Send of request `requestId` has: "<origin in 16 hex digits>-<n>". */
    messageId(requestId) {
        return this.originHex + "-" + requestId;
    }

    /** Starts (or, after a refusal, starts again) logging in as `user` with `password`. */
    start(user, password) {
        if (this.user !== "" && user.toLowerCase() !== this.user.toLowerCase()) {
            this.failAll(new Refusal("CLOSED", "another user logged in on this page"));
        }
        this.user = user;
        this.password = password;
        this.token = "";
        this.stopped = false;
        this.backoff.reset();
        this.clearRetry();
        if (!this.socket) {
            this.connect();
        }
    }

    /**
     * A request: written now when logged in, else at the next login; kept until answered.
     *
     * @param kind the Envelope's field for it ("send", "schedule", "historyRequest", ...)
     * @returns {id, answer}: its request id, and a promise of the answer (the answering frame's
     *          field; for a paged reply, the list of its frames), rejected with a Refusal
     */
    request(kind, body) {
        const id = ++this.lastId;
        const envelope = { version: PROTOCOL_VERSION, requestId: String(id), [kind]: body };
        let resolve;
        let reject;
        const answer = new Promise((yes, no) => {
            resolve = yes;
            reject = no;
        });
        if (this.state.name === "logged-out" || this.state.name === "logging-out") {
            reject(new Refusal("CLOSED", "logged out"));
            return { id, answer };
        }
        this.pending.set(id, { id, kind, envelope, resolve, reject, parts: [] });
        if (this.state.name === "online") {
            this.write(envelope);
        }
        return { id, answer };
    }

    /** Requests not yet answered, oldest first (sends and the rest). */
    unanswered() {
        return [...this.pending.values()];
    }

    /** Ends the session on the server (its token no longer logs in); nothing reconnects after. */
    logout() {
        this.stopped = true;
        this.clearRetry();
        this.password = "";
        const token = this.token;
        this.token = "";
        this.failAll(new Refusal("CLOSED", "logged out"));
        if (this.state.name === "online" && token !== "") {
            // The server ends the token, says "logged out" and closes: the state follows the close.
            this.farewell = null;
            this.write({ version: PROTOCOL_VERSION, logout: {} });
            this.loggingOut = this.timers.setTimeout(() => this.socket && this.socket.close(), 5_000);
            this.setState({ name: "logging-out" });
            return;
        }
        if (this.socket) {
            const socket = this.socket;
            this.socket = null;
            socket.close();
        }
        this.setState({ name: "logged-out", revoked: false });
    }

    /** Tries again now rather than at the end of the wait (a "reconnect now" button). */
    retryNow() {
        if (this.state.name === "reconnecting") {
            this.clearRetry();
            this.connect();
        }
    }

    // The connection.

    connect() {
        this.retry = null;
        this.farewell = null;
        this.goAwayWait = null;
        this.throttled = null;
        this.setState({ name: "connecting", attempt: this.backoff.attempt + 1 });
        let socket;
        try {
            socket = this.openSocket(this.url, SUBPROTOCOL);
        } catch (e) {
            this.retryLater("cannot open " + this.url + ": " + e.message);
            return;
        }
        this.socket = socket;
        socket.onopen = () => this.socket === socket && this.login();
        socket.onmessage = (event) => this.socket === socket && this.frame(event.data);
        socket.onclose = (event) => this.socket === socket && this.closed(event);
        socket.onerror = () => { }; // a close follows, with what can be known
    }

    login() {
        this.usedToken = this.token !== "";
        this.write({
            version: PROTOCOL_VERSION,
            login: {
                userName: this.user, password: this.usedToken ? "" : this.password,
                token: this.token, origin: this.origin.toString(),
            },
        });
    }

    write(envelope) {
        if (this.socket && this.socket.readyState === 1) {
            this.socket.send(JSON.stringify(envelope));
        }
    }

    frame(data) {
        let envelope;
        try {
            envelope = JSON.parse(data);
        } catch (e) {
            this.listener.notice("the server sent something that is not JSON; leaving it");
            this.socket.close();
            return;
        }
        this.lastHeard = this.now();
        if (this.state.name !== "online") {
            this.beforeLogin(envelope);
            return;
        }
        const id = Number(envelope.requestId || 0);
        if (envelope.delivery) {
            this.delivered(envelope.delivery.chat || {});
        } else if (envelope.receipt) {
            this.answer(id, envelope.receipt);
        } else if (envelope.receipts) {
            const sessions = envelope.receipts.sessions || [];
            (envelope.receipts.requestIds || []).forEach((request, i) =>
                this.answer(Number(request), { outcome: "DELIVERED", sessions: sessions[i] || 0 }));
        } else if (envelope.scheduledChange) {
            const request = this.pending.get(id);
            this.listener.scheduledChange(envelope.scheduledChange, request !== undefined);
            this.answer(id, envelope.scheduledChange);
        } else if (envelope.groupNews) {
            this.listener.groupNews(envelope.groupNews);
        } else if (envelope.historyPage || envelope.searchPage || envelope.sentList) {
            this.answer(id, envelope.historyPage || envelope.searchPage || envelope.sentList);
        } else if (envelope.settings) {
            if (this.pending.has(id)) {
                this.answer(id, envelope.settings);
            } else {
                this.listener.settings(envelope.settings); // set on another terminal
            }
        } else if (envelope.error) {
            this.error(id, envelope.error);
        } else if (envelope.goAway) {
            this.goAway(envelope.goAway);
        } else {
            const kind = [...PAGED].find((name) => envelope[name]);
            if (kind) {
                this.part(id, envelope[kind]);
            } // else a pong, or a kind this page does not know: nothing to do
        }
    }

    beforeLogin(envelope) {
        if (envelope.loginResult) {
            this.loginResult(envelope.loginResult);
        } else if (envelope.error) {
            this.farewell = "the server said: " + envelope.error.message;
        } else if (envelope.goAway) {
            this.goAway(envelope.goAway);
        }
    }

    loginResult(result) {
        if (result.ok) {
            this.loggedIn(result);
        } else if (Number(result.retryAfterMillis || 0) > 0) {
            // Throttled: the same login may succeed later.
            this.throttled = Number(result.retryAfterMillis);
            this.farewell = "the server refused the login for now: " + result.reason;
            this.socket.close();
        } else if (this.usedToken && this.password !== "") {
            this.token = ""; // expired or revoked: the password, at once
            this.backoff.reset();
            this.socket.close();
        } else {
            this.stopped = true;
            this.token = "";
            const socket = this.socket;
            this.socket = null;
            socket.close();
            this.setState({ name: "refused", reason: result.reason || "refused" });
        }
    }

    loggedIn(result) {
        this.loginInfo = result;
        if (result.sessionToken) {
            this.token = result.sessionToken;
            this.password = ""; // from now on the token logs in
        }
        this.received = 0;
        this.acknowledged = 0;
        this.backoff.reset();
        const heartbeat = Number(result.heartbeatIntervalMillis || 0) || FIRST_HEARTBEAT_MILLIS;
        this.timers.clearInterval(this.pinger);
        this.pinger = this.timers.setInterval(() => this.ping(heartbeat), heartbeat);
        this.setState({ name: "online" });
        let resent = 0;
        for (const request of this.pending.values()) {
            request.parts = []; // a partial answer from the lost connection is asked for again
            request.again = false;
            this.write(request.envelope);
            resent++;
        }
        this.listener.loggedIn(result, resent);
    }

    ping(heartbeat) {
        if (this.now() - this.lastHeard > 2 * heartbeat) {
            this.farewell = "the server has been silent too long";
            this.socket.close();
            return;
        }
        this.write({ version: PROTOCOL_VERSION, ping: { clientTimeMillis: String(this.now()) } });
    }

    delivered(chat) {
        this.received++;
        const key = chat.sender + "/" + chat.id;
        if (!this.seen.has(key)) {
            this.remember(key);
            this.listener.delivery(chat);
        }
        if (!this.acking) {
            this.acking = true;
            // After the messages of this turn: one Ack for a batch, once they are shown.
            this.timers.setTimeout(() => {
                this.acking = false;
                if (this.state.name === "online" && this.received > this.acknowledged) {
                    this.acknowledged = this.received;
                    this.write({ version: PROTOCOL_VERSION, ack: { received: String(this.received) } });
                }
            }, 0);
        }
    }

    /** Marks a message as shown, so that a repeat is dropped (the page's own history counts too). */
    remember(key) {
        this.seen.add(key);
        if (this.seen.size > SEEN_IDS) {
            this.seen.delete(this.seen.values().next().value);
        }
    }

    part(id, frame) {
        const request = this.pending.get(id);
        if (request) {
            request.parts.push(frame);
            if (!frame.more) {
                this.answer(id, request.parts);
            }
        }
    }

    answer(id, value) {
        const request = this.pending.get(id);
        if (request) {
            this.pending.delete(id);
            request.resolve(value);
        }
    }

    error(id, error) {
        const request = id === 0 ? undefined : this.pending.get(id);
        if (request && error.code === "TRY_AGAIN") {
            // The server's storage could not take it now (failing over): the same request, same id,
            // goes again after the wait it gave, with the others refused so, in order.
            request.again = true;
            if (!this.againTimer) {
                const wait = Math.min(30_000, Math.max(10, Number(error.retryAfterMillis || 0)));
                this.againTimer = this.timers.setTimeout(() => this.writeAgain(), wait);
            }
            return;
        }
        if (request) {
            this.pending.delete(id);
            request.reject(new Refusal(error.code, error.message, Number(error.retryAfterMillis || 0)));
        } else if (error.closing) {
            this.farewell = "the server said: " + error.message;
        } else {
            this.listener.notice("the server said: " + error.message);
        }
    }

    writeAgain() {
        this.againTimer = null;
        if (this.state.name !== "online") {
            return; // the next login writes every request not answered
        }
        for (const request of this.pending.values()) { // in the order they were made
            if (request.again) {
                request.again = false;
                this.write(request.envelope);
            }
        }
    }

    goAway(goAway) {
        // The page can only reach its own server: wait within the spread, then try it again. Told so
        // before the login is answered (the node is full), each time in a row waits longer, as a
        // failed attempt would.
        const spread = Math.round(this.random() * Number(goAway.spreadMillis || 0));
        this.goAwayWait = this.state.name === "online" ? spread : Math.max(spread, this.backoff.next());
        this.farewell = "the server is going away" + (goAway.reason ? " (" + goAway.reason + ")" : "");
        this.socket.close();
    }

    closed(event) {
        this.socket = null;
        this.timers.clearInterval(this.pinger);
        this.timers.clearTimeout(this.loggingOut);
        this.acking = false;
        if (this.state.name === "logging-out") {
            // Revoked when the server said so before it closed ("logged out", closing).
            this.setState({ name: "logged-out", revoked: this.farewell !== null, reason: this.farewell || "" });
            return;
        }
        if (this.stopped) {
            return;
        }
        const wasOnline = this.state.name === "online";
        let why = this.farewell;
        if (!why) {
            why = wasOnline ? "lost the connection" : "cannot reach the server"
                + (event && event.code && event.code !== 1006 ? " (" + event.code + ")" : "");
        }
        this.retryLater(why, this.goAwayWait ?? this.throttled);
    }

    retryLater(why, wait) {
        const delay = wait ?? this.backoff.next();
        this.setState({ name: "reconnecting", reason: why, retryAt: this.now() + delay, attempt: this.backoff.attempt });
        this.retry = this.timers.setTimeout(() => this.connect(), delay);
    }

    clearRetry() {
        if (this.retry) {
            this.timers.clearTimeout(this.retry);
            this.retry = null;
        }
    }

    failAll(refusal) {
        const all = [...this.pending.values()];
        this.pending.clear();
        all.forEach((request) => request.reject(refusal));
    }

    setState(state) {
        this.state = state;
        this.listener.state(state);
    }
}
