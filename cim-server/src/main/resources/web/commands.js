/**
 * commands.js: what a line typed in the page's input box asks for. Pure functions: no DOM, no
 * connection, no clock of their own (the time is an argument). The syntax and the error messages
 * are the console client's (cim-client's CommandParser, DelayParser and TimeParser); one
 * difference: a line without a recipient goes to the conversation open on the page, not to
 * everyone.
 *
 *   hello                         {kind: "send", to: <the open conversation>, text}
 *   @bob hi  /  #team hi          {kind: "send", to: "bob" / "#team", text}
 *   @everyone hi                  to everyone
 *   ::)                           sends ":)" (a leading "::" sends a text that starts with ':')
 *   :delay [@user|#group] <text> <N>     {kind: "delay", to, text, delayMillis}
 *   :at <time> [@user|#group] <text>     {kind: "at", to, text, dueAtMillis}
 *   :delays  :cancel n  :edit n text  :move n <delay or time>
 *   :create [open] #g users  :invite #g users  :kick #g users  :join #g  :leave #g  :groups  :members #g
 *   :history @u|#g [n]  :search words [@u|#g]  :olu  :help  :q (log out)
 *
 * parse(line, context) returns a command, or throws a CommandError whose message is one line
 * saying what was expected; it throws nothing else, whatever the line.
 *
 * Times (:at, :move) are read in the browser's time zone: HH:MM, today HH:MM, tomorrow HH:MM,
 * YYYY-MM-DD HH:MM, seconds allowed. A time that does not exist (the hour skipped when daylight
 * saving time begins) is refused; one that exists twice is the first of the two (as JavaScript's
 * Date reads it). Delays: seconds (5, 1.5) or units largest first (500ms, 90s, 2m, 1h30m, 1d12h).
 */

import { UNITS, formatDelay, localDate, localTime } from "./text.js";

/** A line that is not a valid command; the message says what was expected. */
export class CommandError extends Error {
}

export const DELAY_USAGE = "usage: :delay [@user|#group] <text> <delay>, e.g. :delay see you soon 5m";
export const AT_USAGE = "usage: :at <time> [@user|#group] <text>, e.g. :at 17:30 @bob call me";
export const PRIVATE_USAGE = "usage: @user <text> or #group <text>, e.g. @bob hi";
const NUMBER_HINT = "numbers are listed by :delays";
const DELAY_EXPECTED = "expected seconds (5, 1.5) or amounts with units (500ms, 90s, 2m, 1h30m)";
const TIME_EXPECTED = "expected HH:MM, today HH:MM, tomorrow HH:MM or YYYY-MM-DD HH:MM";
export const DEFAULT_HISTORY = 20;
export const MAX_HISTORY = 200;
const EVERYONE = "everyone";
const MAX_NAME = 32;

/** The commands, for :help and completion. */
export const HELP = [
    "commands:",
    "  <text>                        send to the open conversation",
    "  @user <text>                  send to one user (all of their terminals)",
    "  #group <text>                 send to the members of a group",
    "  @everyone <text>              send to everyone online",
    "  ::<text>                      send a text that starts with ':' (::) sends :))",
    "  :delay [@user|#group] <text> <N>  send after N: 5 or 1.5 (seconds), 500ms, 2m, 1h30m, 1d",
    "  :at <time> [@user|#group] <text>  send at a time: 17:30, tomorrow 9:00, 2027-01-05 09:00",
    "  :delays                       list your scheduled messages (also in the Scheduled panel)",
    "  :cancel <n>                   cancel scheduled message #n",
    "  :edit <n> <text>              replace the text of scheduled message #n",
    "  :move <n> <delay or time>     send #n at another time: :move 3 10m, :move 3 tomorrow 9:00",
    "  :create [open] #group [user...]  make a group (you own it; anyone may join an open one)",
    "  :invite #group <user...>      add users to a group you are in",
    "  :join #group / :leave #group  join an open group / leave a group",
    "  :kick #group <user...>        remove users from a group you own",
    "  :groups / :members #group     list your groups / a group's members",
    "  :history @user|#group [n]     open the conversation with its last n messages; repeat it to page back",
    "  :search <words> [@user|#group]  your messages holding the words, newest first; repeat for more",
    "  :olu                          list the users online",
    "  :help                         this list",
    "  :q                            log out (ends the session on the server)",
    "times are in your browser's time zone; scheduled messages are kept by the server and sent even when no page is open",
];

/**
 * Why `name` is not a valid user name, or null when it is: 1 to 32 of A-Z a-z 0-9 _ - ., beginning
 * and ending with a letter or digit, no two of _ - . in a row, and not "everyone" (as UserNames).
 */
export function userNameProblem(name) {
    if (!name) {
        return "a user name is required";
    }
    if (name.length > MAX_NAME || !/^[A-Za-z0-9]+([_.-][A-Za-z0-9]+)*$/.test(name)) {
        return "invalid user name (expected: 1 to " + MAX_NAME
            + " of A-Z a-z 0-9 _ - ., beginning and ending with a letter or digit, no two of _ - . in a row)";
    }
    if (name.toLowerCase() === EVERYONE) {
        return "'everyone' is reserved for messages to all users";
    }
    return null;
}

/** Why `name` (without its '#') is not a valid group name, or null when it is. */
export function groupProblem(name) {
    if (!name) {
        return "a group name is required (#name)";
    }
    const problem = userNameProblem(name);
    return problem === null ? null
        : "invalid group name #" + name + " (a group's name follows a user name's rules: " + problem + ")";
}

/** The recipient of a conversation: "@bob" is "bob", "#team" and "everyone" stay. */
export function recipientOf(conversation) {
    return conversation.startsWith("@") ? conversation.slice(1) : conversation;
}

/** The conversation of a recipient: "bob" is "@bob", "#team" and "everyone" stay. */
export function conversationOf(recipient) {
    return recipient === EVERYONE || recipient.startsWith("#") ? recipient : "@" + recipient;
}

/**
 * Reads one line.
 *
 * @param line    what was typed
 * @param context {now: epoch millis, maxDelayMillis, maxTextLength, conversation: the open
 *                conversation ("everyone", "@bob", "#team")}
 * @returns a command object (see the top of this file); {kind: "nothing"} for a blank line
 * @throws CommandError for a line that is not a valid command
 */
export function parse(line, context) {
    const input = String(line).trim();
    if (input === "") {
        return { kind: "nothing" };
    }
    if (input.startsWith("::")) {
        return { kind: "send", to: recipientOf(context.conversation), text: text(input.slice(1), context, PRIVATE_USAGE) };
    }
    if (!input.startsWith(":")) {
        return { kind: "send", ...addressed(input, context, PRIVATE_USAGE) };
    }
    const space = input.search(/\s/);
    const name = space < 0 ? input : input.slice(0, space);
    const rest = space < 0 ? "" : input.slice(space).trim();
    switch (name) {
        case ":delay": return delay(rest, context);
        case ":at": return at(rest, context);
        case ":delays": return noArguments(name, rest, { kind: "delays" });
        case ":cancel": return { kind: "cancel", number: number(name, rest, ":cancel <number>") };
        case ":edit": return edit(rest, context);
        case ":move": return move(rest, context);
        case ":create": return create(rest);
        case ":invite": return groupAndUsers(name, rest, "invite");
        case ":kick": return groupAndUsers(name, rest, "kick");
        case ":join": return { kind: "join", group: groupOnly(name, rest) };
        case ":leave": return { kind: "leave", group: groupOnly(name, rest) };
        case ":members": return { kind: "members", group: groupOnly(name, rest) };
        case ":groups": return noArguments(name, rest, { kind: "groups" });
        case ":history": return history(rest);
        case ":search": return search(rest);
        case ":olu": return noArguments(name, rest, { kind: "olu" });
        case ":help": return noArguments(name, rest, { kind: "help" });
        case ":q":
        case ":q!": return noArguments(name, rest, { kind: "logout" });
        default:
            throw new CommandError("unknown command " + name
                + "; type :help for the list (to send a text that starts with ':', begin it with '::')");
    }
}

function delay(rest, context) {
    const split = lastWhitespace(rest);
    if (rest === "" || split < 0) {
        throw new CommandError((rest === "" ? "the text and the delay are missing; " : "the delay is missing; ")
            + DELAY_USAGE);
    }
    const delayMillis = delayOf(rest.slice(split + 1), context);
    return { kind: "delay", ...addressed(rest.slice(0, split).trim(), context, DELAY_USAGE), delayMillis };
}

function delayOf(token, context) {
    const millis = parseDelay(token);
    if (millis === 0) {
        throw new CommandError("the delay must be more than 0 (to send at once, type the text alone)");
    }
    if (millis > context.maxDelayMillis) {
        throw new CommandError("the delay " + formatDelay(millis) + " is over the maximum of "
            + formatDelay(context.maxDelayMillis) + " (the server's)");
    }
    return millis;
}

function at(rest, context) {
    const list = words(rest);
    if (list.length === 0) {
        throw new CommandError("the time and the text are missing; " + AT_USAGE);
    }
    const time = parseTime(list, context.now);
    checkHorizon(time.when, context);
    if (list.length === time.words) {
        throw new CommandError("the text is missing; " + AT_USAGE);
    }
    // Keep the text as typed, spaces and all: cut the time's words off the front of the line.
    let typed = rest.trim();
    for (let i = 0; i < time.words; i++) {
        typed = typed.slice(list[i].length).trimStart();
    }
    return { kind: "at", ...addressed(typed, context, AT_USAGE), dueAtMillis: time.when };
}

function checkHorizon(when, context) {
    if (when - context.now > context.maxDelayMillis) {
        throw new CommandError(localDate(when) + " is more than " + formatDelay(context.maxDelayMillis)
            + " ahead, the maximum (the server's)");
    }
}

function edit(rest, context) {
    const space = rest.search(/\s/);
    const first = space < 0 ? rest : rest.slice(0, space);
    const n = number(":edit", first, ":edit <number> <new text>");
    const newText = space < 0 ? "" : rest.slice(space).trim();
    return { kind: "edit", number: n, text: text(newText, context, "usage: :edit <number> <new text>") };
}

function move(rest, context) {
    const list = words(rest);
    const usage = "usage: :move <number> <delay or time>, e.g. :move 7 30m or :move 7 tomorrow 9:00";
    if (list.length < 2) {
        throw new CommandError((list.length === 0 ? "the number and the new time are missing; "
            : "the new time is missing; ") + usage);
    }
    const n = number(":move", list[0], ":move <number> <delay or time>");
    const whenWords = list.slice(1);
    if (startsTime(whenWords[0])) {
        const time = parseTime(whenWords, context.now);
        if (time.words !== whenWords.length) {
            throw new CommandError("unexpected words after the time: '" + whenWords.slice(time.words).join(" ")
                + "'; " + usage);
        }
        checkHorizon(time.when, context);
        return { kind: "move", number: n, dueAtMillis: time.when };
    }
    if (whenWords.length !== 1) {
        throw new CommandError("'" + whenWords.join(" ") + "' is not a delay or a time; " + usage);
    }
    return { kind: "move", number: n, delayMillis: delayOf(whenWords[0], context) };
}

function create(rest) {
    const list = words(rest);
    const open = list.length > 0 && list[0] === "open";
    const after = open ? list.slice(1) : list;
    const usage = "usage: :create [open] #group [user...], e.g. :create #team bob carol";
    if (after.length === 0) {
        throw new CommandError("the group's name is missing; " + usage);
    }
    return { kind: "create", group: group(after[0], usage), open, members: users(after.slice(1), usage) };
}

function groupAndUsers(command, rest, kind) {
    const list = words(rest);
    const usage = "usage: " + command + " #group user...";
    if (list.length === 0) {
        throw new CommandError("the group's name is missing; " + usage);
    }
    const names = users(list.slice(1), usage);
    if (names.length === 0) {
        throw new CommandError("which users? " + usage);
    }
    return { kind, group: group(list[0], usage), users: names };
}

function groupOnly(command, rest) {
    const list = words(rest);
    const usage = "usage: " + command + " #group";
    if (list.length !== 1) {
        throw new CommandError((list.length === 0 ? "the group's name is missing; " : "one group, please; ") + usage);
    }
    return group(list[0], usage);
}

/** A group's name, written #name; returned without the '#', in lower case. */
function group(word, usage) {
    if (!word.startsWith("#")) {
        throw new CommandError("'" + word + "' is not a group (expected: #name); " + usage);
    }
    const problem = groupProblem(word.slice(1));
    if (problem !== null) {
        throw new CommandError(problem + "; " + usage);
    }
    return word.slice(1).toLowerCase();
}

function users(list, usage) {
    return list.map((word) => {
        const name = word.startsWith("@") ? word.slice(1) : word;
        const problem = userNameProblem(name);
        if (problem !== null) {
            throw new CommandError("'" + word + "': " + problem + "; " + usage);
        }
        return name.toLowerCase();
    });
}

function history(rest) {
    const list = words(rest);
    const usage = "usage: :history @user [n] or :history #group [n] (n at most " + MAX_HISTORY
        + "; repeat it to page back)";
    if (list.length === 0 || list.length > 2) {
        throw new CommandError((list.length === 0 ? "which conversation? " : "too many words; ") + usage);
    }
    const conversation = conversationWord(list[0], usage);
    let n = DEFAULT_HISTORY;
    if (list.length === 2) {
        n = /^[+-]?\d+$/.test(list[1]) ? Number(list[1]) : 0;
        if (!(n >= 1 && n <= MAX_HISTORY)) {
            throw new CommandError("'" + list[1] + "' is not a number from 1 to " + MAX_HISTORY + "; " + usage);
        }
    }
    return { kind: "history", conversation, count: n };
}

function search(rest) {
    const list = words(rest);
    const usage = "usage: :search <words> [@user|#group], e.g. :search lunch #team";
    let conversation = "";
    if (list.length > 0) {
        const last = list[list.length - 1];
        if (last.startsWith("@") || last.startsWith("#")) {
            conversation = conversationWord(last, usage);
            list.pop();
        }
    }
    if (list.length === 0) {
        throw new CommandError("search for what? " + usage);
    }
    return { kind: "search", text: list.join(" "), conversation };
}

/** @user or #group, checked, in canonical form ("@bob", "#team"). */
function conversationWord(word, usage) {
    if (word.startsWith("#")) {
        return "#" + group(word, usage);
    }
    if (!word.startsWith("@")) {
        throw new CommandError("'" + word + "' is not a conversation (expected: @user or #group); " + usage);
    }
    return "@" + users([word], usage)[0];
}

/** Splits an optional leading @user or #group from the text and checks both. */
function addressed(input, context, usage) {
    let to = recipientOf(context.conversation);
    let rest = input;
    if (input.startsWith("#") || input.startsWith("@")) {
        const space = input.search(/\s/);
        const head = space < 0 ? input : input.slice(0, space);
        rest = space < 0 ? "" : input.slice(space).trim();
        if (head.startsWith("#")) {
            to = "#" + group(head, usage);
        } else {
            const name = head.slice(1);
            if (name === EVERYONE) { // "@everyone hi" is a plain broadcast
                to = EVERYONE;
            } else {
                const problem = userNameProblem(name);
                if (problem !== null) {
                    throw new CommandError("'@" + name + "': " + problem + "; " + usage);
                }
                to = name.toLowerCase();
            }
        }
    }
    return { to, text: text(rest, context, usage) };
}

function text(value, context, usage) {
    if (value.trim() === "") {
        throw new CommandError("the text is missing; " + usage);
    }
    if (value.length > context.maxTextLength) {
        throw new CommandError("the message is " + value.length + " characters long; the maximum is "
            + context.maxTextLength + " (the server's)");
    }
    return value;
}

function number(command, word, usage) {
    if (word === "") {
        throw new CommandError("the number is missing; usage: " + usage + " (" + NUMBER_HINT + ")");
    }
    const digits = word.startsWith("#") ? word.slice(1) : word;
    if (/^\+?\d{1,15}$/.test(digits) && Number(digits) > 0) {
        return Number(digits);
    }
    throw new CommandError("'" + word + "' is not a number; usage: " + usage + " (" + NUMBER_HINT + ")");
}

function noArguments(name, rest, command) {
    if (rest !== "") {
        throw new CommandError(name + " takes no arguments, got '" + rest + "'");
    }
    return command;
}

function words(value) {
    const stripped = value.trim();
    return stripped === "" ? [] : stripped.split(/\s+/);
}

function lastWhitespace(value) {
    for (let i = value.length - 1; i >= 0; i--) {
        if (/\s/.test(value[i])) {
            return i;
        }
    }
    return -1;
}

// Delays.

/**
 * Milliseconds of a delay: seconds ("5", "1.5") or amounts with units, largest first ("500ms",
 * "1h30m"). Exact (decimals are read as decimals, not floating point), to the millisecond.
 */
export function parseDelay(token) {
    if (token.startsWith("-")) {
        throw new CommandError("the delay must not be negative: " + token);
    }
    if (/^\d+(\.\d+)?$/.test(token)) {
        return millis([[token, 1000]], token);
    }
    if (!/^(?:\d+(?:\.\d+)?(?:ms|d|h|m|s))+$/.test(token)) {
        throw new CommandError("'" + token + "' is not a delay: " + DELAY_EXPECTED);
    }
    const amounts = [];
    let previous = -1;
    for (const [, amount, symbol] of token.matchAll(/(\d+(?:\.\d+)?)(ms|d|h|m|s)/g)) {
        const unit = UNITS.findIndex(([s]) => s === symbol);
        if (unit <= previous) {
            throw new CommandError("'" + token + "' is not a delay: units must go from largest to smallest, each once ("
                + DELAY_EXPECTED + ")");
        }
        previous = unit;
        amounts.push([amount, UNITS[unit][1]]);
    }
    return millis(amounts, token);
}

/** The sum of decimal amounts times their units, in whole milliseconds (BigInt arithmetic: exact). */
function millis(amounts, token) {
    const scale = Math.max(...amounts.map(([a]) => (a.split(".")[1] || "").length));
    let total = 0n; // in 10^-scale milliseconds
    for (const [amount, unit] of amounts) {
        const [whole, fraction = ""] = amount.split(".");
        total += BigInt(whole + fraction.padEnd(scale, "0")) * BigInt(unit);
    }
    const divisor = 10n ** BigInt(scale);
    if (total / divisor > 9_223_372_036_854n) { // Long.MAX_VALUE / 1,000,000, as the console's limit
        throw new CommandError("the delay " + token + " is far too long");
    }
    if (total % divisor !== 0n) {
        throw new CommandError("the delay " + token + " is finer than a millisecond");
    }
    return Number(total / divisor);
}

// Times.

/** True when `word` can start a time (of :move). */
export function startsTime(word) {
    return /^\d{1,2}:\d{2}(:\d{2})?$/.test(word) || /^\d{4}-\d{2}-\d{2}$/.test(word)
        || word === "today" || word === "tomorrow";
}

/**
 * Reads a time from the first one or two of `list`, in the browser's time zone.
 *
 * @param now epoch millis
 * @returns {when: epoch millis, words: how many words it took}
 */
export function parseTime(list, now) {
    if (list.length === 0) {
        throw new CommandError("the time is missing (" + TIME_EXPECTED + ")");
    }
    const first = list[0];
    const today = new Date(now);
    let day;
    let clock;
    let used;
    if (/^\d{1,2}:\d{2}(:\d{2})?$/.test(first)) {
        day = [today.getFullYear(), today.getMonth() + 1, today.getDate()];
        clock = first;
        used = 1;
    } else {
        if (list.length < 2) {
            throw new CommandError("'" + first + "' is not a time (" + TIME_EXPECTED + ")");
        }
        clock = list[1];
        used = 2;
        if (first === "today") {
            day = [today.getFullYear(), today.getMonth() + 1, today.getDate()];
        } else if (first === "tomorrow") {
            const next = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1, 12);
            day = [next.getFullYear(), next.getMonth() + 1, next.getDate()];
        } else {
            day = date(first);
        }
    }
    if (!/^\d{1,2}:\d{2}(:\d{2})?$/.test(clock)) {
        throw new CommandError("'" + clock + "' is not a time of day (" + TIME_EXPECTED + ")");
    }
    const [h, mi, s = 0] = clock.split(":").map(Number);
    if (h > 23 || mi > 59 || s > 59) {
        throw new CommandError("'" + clock + "' is not a time of day (expected: 00:00 to 23:59)");
    }
    const written = list.slice(0, used).join(" ");
    const when = local(day, [h, mi, s], written);
    if (when <= now) {
        const hint = used === 1 ? "; for tomorrow: tomorrow " + clock : "";
        const it = localTime(now).endsWith(":00") ? localTime(now).slice(0, 5) : localTime(now);
        throw new CommandError(written + " has passed (it is " + localDate(now) + " " + it + ")" + hint);
    }
    return { when, words: used };
}

function date(word) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(word)) {
        throw new CommandError("'" + word + "' is not a time (" + TIME_EXPECTED + ")");
    }
    const [y, m, d] = word.split("-").map(Number);
    const check = new Date(y, m - 1, d, 12);
    if (check.getFullYear() !== y || check.getMonth() !== m - 1 || check.getDate() !== d) {
        throw new CommandError("'" + word + "' is not a date (expected: YYYY-MM-DD, e.g. 2027-01-05)");
    }
    return [y, m, d];
}

/** Epoch millis of a local date and time; refused when the clocks skip it (a daylight saving gap). */
function local([y, m, d], [h, mi, s], written) {
    const at = new Date(y, m - 1, d, h, mi, s);
    if (at.getFullYear() === y && at.getMonth() === m - 1 && at.getDate() === d && at.getHours() === h
            && at.getMinutes() === mi) {
        return at.getTime();
    }
    // A gap: find the instant the offset changed, and say what the clocks did then.
    let before = at.getTime() - 86_400_000;
    let after = at.getTime();
    const offset = (t) => new Date(t).getTimezoneOffset();
    while (after - before > 1000) {
        const middle = Math.floor((before + after) / 2);
        if (offset(middle) === offset(before)) {
            before = middle;
        } else {
            after = middle;
        }
    }
    const clockAt = (t, minutes) => new Date(t - minutes * 60_000).toISOString().slice(11, 16);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    throw new CommandError(written + " does not exist in " + zone + ": the clocks go forward from "
        + clockAt(after, offset(before)) + " to " + clockAt(after, offset(after))
        + " that day (expected: a time outside that hour)");
}
