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
 *   :delay [@user] <text> online [until <end>]
 *                                        {kind: "online", to, text, deadlineMillis (0: none)}
 *   :at <time> [@user|#group] <text>     {kind: "at", to, text, dueAtMillis}
 *   :at <time> their|<Zone> [@user|#group] <text>
 *                                        {kind: "at", to, text, at: "9:00", atZone: "their" or a zone}
 *   :every <rule> [until <end>] [times <N>] [@user|#group] <text>
 *                                        {kind: "every", to, text, every: the rule as typed, zone,
 *                                        untilMillis?, times?}
 *   late drop [after] <duration>         after the time of :at and :every, at the end of :delay:
 *                                        dropLateAfterMillis (late send, the default, adds nothing)
 *   :delays  :cancel n  :edit n text  :move n <delay or time>  :skip n  :sent [N]  :tz [<Zone>]
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
 * times.js reads these words.
 *
 * The forms of issue 28 (online, :every, their and zones, late, :skip, :sent, :tz) follow the
 * grammar given to the console; their messages are this page's. A time followed by "their" or a
 * zone (Asia/Tokyo, UTC) is not read here: the server reads it in the recipient's zone or the one
 * named (the next time that clock shows it). An end (online until, every until) is a delay from
 * now (2d) or a date (2026-12-31: the end of that day in the browser's zone). A rule of :every is
 * one word, two when the first is a day word or an ordinal and the second a time of day (weekday
 * 9:00, mon,thu 17:30, 1st 10:00, last 18:00), or a quoted cron expression ("0 9 * * 1-5"); the
 * server reads it, and refuses what it cannot read, saying what was expected.
 */

import { formatDelay, localDate } from "./text.js";
import {
    CommandError, parseDelay, parseTime, startsTime, timeWords, parseEnd, wallClock, zoneWord, knownZone,
    ZONE_EXPECTED,
} from "./times.js";

export { CommandError };

export const DELAY_USAGE = "usage: :delay [@user|#group] <text> <delay> or :delay [@user] <text> online [until <end>], "
    + "e.g. :delay see you soon 5m";
export const AT_USAGE = "usage: :at <time> [their|<Zone>] [late drop <duration>] [@user|#group] <text>, "
    + "e.g. :at 17:30 @bob call me";
export const EVERY_USAGE = "usage: :every <rule> [until <end>|times <N>] [late drop <duration>] [@user|#group] <text>, "
    + "e.g. :every weekday 9:00 #team standup";
export const PRIVATE_USAGE = "usage: @user <text> or #group <text>, e.g. @bob hi";
const NUMBER_HINT = "numbers are listed by :delays";
const LATE_EXPECTED = "expected: late drop <duration>, late drop after <duration> or late send";
const ONLINE_USER = "'online' waits for one user to log in (expected: @user)";
export const DEFAULT_SENT = 20;
export const MAX_SENT = 200;
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
    "  :delay [@user] <text> online [until <end>]  send when the user next logs in (at once if online);",
    "                                dropped if not by <end>: a delay (2d) or a date (2026-12-31)",
    "  :at <time> [their|<Zone>] [@user|#group] <text>  send at a time: 17:30, tomorrow 9:00, 2027-01-05 09:00;",
    "                                9:00 their: at 9:00 in the user's zone; 17:30 Asia/Tokyo: in that zone",
    "  :every <rule> [until <end>|times <N>] [@user|#group] <text>  send again and again: 10s, 2h, 1d,",
    "                                weekday 9:00, mon,thu 17:30, 1st 10:00, last 18:00, \"0 9 * * 1-5\" (cron)",
    "  late drop <duration>          after :at's time or :every's rule, at the end of :delay: not sent if it",
    "                                cannot go within that long of its time (late send, the default: sent late)",
    "  :delays                       list your scheduled messages (also in the Scheduled panel)",
    "  :cancel <n>                   cancel scheduled message #n (a recurring one: the whole series)",
    "  :skip <n>                     skip the next occurrence of recurring message #n",
    "  :sent [N]                     your last N scheduled messages sent, failed or dropped (" + DEFAULT_SENT + ")",
    "  :tz [<Zone>]                  show your time zone, or set it on your account: :tz Europe/Berlin",
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
    "times are in your browser's time zone; rules in your account's zone (:tz), else the browser's;",
    "scheduled messages are kept by the server and sent even when no page is open",
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
 *                conversation ("everyone", "@bob", "#team"), zone: the zone rules are read in (the
 *                account's, else the browser's)}
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
        case ":every": return every(rest, context);
        case ":delays": return noArguments(name, rest, { kind: "delays" });
        case ":cancel": return { kind: "cancel", number: number(name, rest, ":cancel <number>") };
        case ":skip": return { kind: "skip", number: number(name, rest, ":skip <number>") };
        case ":sent": return sent(rest);
        case ":tz": return tz(rest);
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
    let list = words(rest);
    const late = trailingLate(list);
    list = list.slice(0, list.length - late.words);
    const last = list.length - 1;
    let cut;
    let timing;
    if (list[last] === "online") {
        cut = 1;
        timing = { kind: "online", deadlineMillis: 0 };
    } else if (list.length >= 3 && list[last - 2] === "online" && list[last - 1] === "until") {
        cut = 3;
        timing = { kind: "online", deadlineMillis: deadline(list[last], context) };
    } else if (list[last] === "until" && list[last - 1] === "online") {
        throw new CommandError("the end is missing after 'online until' (expected: a delay such as 2d or a date "
            + "such as 2026-12-31); " + DELAY_USAGE);
    }
    if (list.length <= (cut || 1)) {
        throw new CommandError((list.length === 0 ? "the text and the delay are missing; "
            : cut ? "the text is missing; " : "the delay is missing; ") + DELAY_USAGE);
    }
    const typed = cutTrailing(rest, (cut || 1) + late.words);
    if (!timing) {
        const delayMillis = delayOf(list[last], context);
        return { kind: "delay", ...addressed(typed, context, DELAY_USAGE), delayMillis, ...late.policy };
    }
    if (late.policy.dropLateAfterMillis) {
        throw new CommandError("a message sent when its recipient logs in is never late (expected: online until "
            + "<end> to give up at a time, without late drop)");
    }
    const { to, text: body } = addressed(typed, context, DELAY_USAGE);
    oneUser(to, ONLINE_USER);
    return { kind: "online", to, text: body, deadlineMillis: timing.deadlineMillis };
}

/** The end of "online until <end>": ahead, and no further than the longest delay. */
function deadline(word, context) {
    const end = parseEnd(word, context.now);
    checkHorizon(end, context);
    return end;
}

/** Refuses a recipient that is not one user, with `problem` (which says what was expected). */
function oneUser(to, problem) {
    if (to === EVERYONE || to.startsWith("#")) {
        throw new CommandError(problem);
    }
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
    const used = timeWords(list);
    const zone = zoneWord(list[used]);
    let command;
    let taken;
    if (zone !== null) {
        // Read by the server: the next time the recipient's clock, or the zone's, shows it.
        command = { kind: "at", at: wallClock(list), atZone: zone };
        taken = used + 1;
    } else {
        if (/^[A-Z][A-Za-z_]+\/[A-Z]/.test(list[used] || "")) {
            throw new CommandError("unknown time zone '" + list[used] + "' (" + ZONE_EXPECTED + ")");
        }
        const time = parseTime(list, context.now);
        checkHorizon(time.when, context);
        command = { kind: "at", dueAtMillis: time.when };
        taken = time.words;
    }
    const late = leadingLate(list, taken);
    taken += late.words;
    if (list.length === taken) {
        throw new CommandError("the text is missing; " + AT_USAGE);
    }
    const { to, text: body } = addressed(cutLeading(rest, taken), context, AT_USAGE);
    if (zone === "their") {
        oneUser(to, "'their' time is one user's (expected: @user)");
    }
    return { kind: "at", to, text: body, ...command, ...late.policy };
}

function every(rest, context) {
    let input = rest.trim();
    if (input === "") {
        throw new CommandError("the rule and the text are missing; " + EVERY_USAGE);
    }
    let spec;
    if (input.startsWith("\"")) {
        const close = input.indexOf("\"", 1);
        if (close < 0) {
            throw new CommandError("the rule's closing quote is missing; " + EVERY_USAGE);
        }
        spec = input.slice(1, close).trim().replace(/\s+/g, " ");
        input = input.slice(close + 1);
        if (spec === "" || (input !== "" && !/^\s/.test(input))) {
            throw new CommandError((spec === "" ? "the rule is empty; " : "a space is missing after the quoted rule; ")
                + EVERY_USAGE);
        }
        input = input.trim();
    } else {
        const list = words(input);
        const n = list.length >= 2 && RULE_FIRST_WORD.test(list[0]) && /^\d{1,2}:\d{2}$/.test(list[1]) ? 2 : 1;
        spec = list.slice(0, n).join(" ");
        if (spec.startsWith("@") || spec.startsWith("#")) {
            throw new CommandError("the rule is missing; " + EVERY_USAGE);
        }
        input = cutLeading(input, n);
    }
    const command = { kind: "every", every: spec, zone: context.zone };
    const list = words(input);
    let taken = 0;
    const seen = new Set();
    for (let word = list[0]; ["until", "times", "late"].includes(word); word = list[taken]) {
        if (seen.has(word)) {
            throw new CommandError("'" + word + "' twice; " + EVERY_USAGE);
        }
        seen.add(word);
        if (word === "until") {
            command.untilMillis = parseEnd(list[taken + 1], context.now);
            taken += 2;
        } else if (word === "times") {
            command.times = times(list[taken + 1]);
            taken += 2;
        } else {
            const late = leadingLate(list, taken);
            if (late.words === 0) {
                break; // "late" begins the text
            }
            command.late = late.policy;
            taken += late.words;
        }
    }
    const late = command.late || {};
    delete command.late;
    if (taken === list.length) {
        throw new CommandError("the text is missing; " + EVERY_USAGE);
    }
    return { kind: "every", ...addressed(cutLeading(input, taken), context, EVERY_USAGE), ...command, ...late };
}

/** The first word of a two-word rule: days (weekday, mon,thu, ...) or a day of the month (1st, last). */
const RULE_FIRST_WORD = new RegExp("^(weekday|weekend|daily|last|\\d{1,2}(st|nd|rd|th)"
    + "|((mon|tue|wed|thu|fri|sat|sun)[a-z]*)(,(mon|tue|wed|thu|fri|sat|sun)[a-z]*)*)$", "i");

function times(word) {
    if (word === undefined || !/^\d{1,10}$/.test(word) || Number(word) < 1 || Number(word) > 4_294_967_295) {
        throw new CommandError("'" + (word ?? "") + "' is not a number of times (expected: times <N>, N from 1); "
            + EVERY_USAGE);
    }
    return Number(word);
}

/**
 * A late policy at `list[from]`: "late drop <duration>", "late drop after <duration>" or "late send"
 * (the default). Returns {policy: {dropLateAfterMillis} or {}, words: how many it took}; none is 0
 * words ("late" followed by another word begins the text).
 */
function leadingLate(list, from) {
    if (list[from] !== "late" || list[from + 1] !== "send" && list[from + 1] !== "drop") {
        return { policy: {}, words: 0 };
    }
    if (list[from + 1] === "send") {
        return { policy: {}, words: 2 };
    }
    const after = list[from + 2] === "after" ? 1 : 0;
    return { policy: { dropLateAfterMillis: lateLimit(list[from + 2 + after]) }, words: 3 + after };
}

/** A late policy at the end of `list` (of :delay), as leadingLate; none is 0 words. */
function trailingLate(list) {
    const n = list.length;
    if (list[n - 2] === "late" && list[n - 1] === "send") {
        return { policy: {}, words: 2 };
    }
    if (list[n - 1] === "drop" && list[n - 2] === "late"
            || list[n - 1] === "after" && list[n - 2] === "drop" && list[n - 3] === "late") {
        throw new CommandError("the late policy's duration is missing (" + LATE_EXPECTED + ")");
    }
    for (const words of [3, 4]) {
        const from = n - words;
        if (from >= 0 && list[from] === "late" && list[from + 1] === "drop" && (words === 3 || list[from + 2] === "after")) {
            return { policy: { dropLateAfterMillis: lateLimit(list[n - 1]) }, words };
        }
    }
    return { policy: {}, words: 0 };
}

function lateLimit(word) {
    if (word === undefined) {
        throw new CommandError("the late policy's duration is missing (" + LATE_EXPECTED + ")");
    }
    const millis = parseDelay(word);
    if (millis === 0) {
        throw new CommandError("late drop 0 would drop every message (" + LATE_EXPECTED + ", the duration more than 0)");
    }
    return millis;
}

function checkHorizon(when, context) {
    if (when - context.now > context.maxDelayMillis) {
        throw new CommandError(localDate(when) + " is more than " + formatDelay(context.maxDelayMillis)
            + " ahead, the maximum (the server's)");
    }
}

function sent(rest) {
    const list = words(rest);
    const usage = "usage: :sent [N] (N from 1 to " + MAX_SENT + ", " + DEFAULT_SENT + " if not given)";
    if (list.length > 1) {
        throw new CommandError("too many words; " + usage);
    }
    if (list.length === 0) {
        return { kind: "sent", limit: DEFAULT_SENT };
    }
    const n = /^\d{1,4}$/.test(list[0]) ? Number(list[0]) : 0;
    if (!(n >= 1 && n <= MAX_SENT)) {
        throw new CommandError("'" + list[0] + "' is not a number from 1 to " + MAX_SENT + "; " + usage);
    }
    return { kind: "sent", limit: n };
}

function tz(rest) {
    const list = words(rest);
    const usage = "usage: :tz shows your time zone, :tz <Zone> sets it, e.g. :tz Europe/Berlin";
    if (list.length === 0) {
        return { kind: "tz" };
    }
    if (list.length > 1) {
        throw new CommandError("one zone, please; " + usage);
    }
    const zone = knownZone(list[0]);
    if (zone === null) {
        throw new CommandError("unknown time zone '" + list[0] + "' (" + ZONE_EXPECTED + ")");
    }
    return { kind: "tz", zone };
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

/** `value` without its first `n` words, the rest as typed (spaces and all). */
function cutLeading(value, n) {
    let rest = value.trim();
    for (let i = 0; i < n; i++) {
        const space = rest.search(/\s/);
        rest = space < 0 ? "" : rest.slice(space).trimStart();
    }
    return rest;
}

/** `value` without its last `n` words, the rest as typed. */
function cutTrailing(value, n) {
    let rest = value.trim();
    for (let i = 0; i < n; i++) {
        const split = lastWhitespace(rest);
        rest = split < 0 ? "" : rest.slice(0, split).trimEnd();
    }
    return rest;
}

function lastWhitespace(value) {
    for (let i = value.length - 1; i >= 0; i--) {
        if (/\s/.test(value[i])) {
            return i;
        }
    }
    return -1;
}
