/**
 * times.js: the words of time in a command line. Pure functions: no DOM, no connection, no clock of
 * their own (the time is an argument). The browser's time zone is where times and dates are read.
 *
 *   delays     seconds (5, 1.5) or amounts with units, largest first (500ms, 90s, 2m, 1h30m, 1d12h)
 *   times      HH:MM, today HH:MM, tomorrow HH:MM, YYYY-MM-DD HH:MM, seconds allowed: the instant
 *              in the browser's zone (parseTime), or checked only, for the server to read in
 *              another zone (wallClock)
 *   ends       a delay from now (2d) or a date (2026-12-31: the end of that day)
 *   zones      IANA names as the browser knows them (Asia/Tokyo, UTC), written the canonical way
 *
 * Each throws a CommandError whose one-line message says what was expected.
 */

import { UNITS, localDate, localTime } from "./text.js";

/** A line that is not a valid command; the message says what was expected. */
export class CommandError extends Error {
}

const DELAY_EXPECTED = "expected seconds (5, 1.5) or amounts with units (500ms, 90s, 2m, 1h30m)";
const TIME_EXPECTED = "expected HH:MM, today HH:MM, tomorrow HH:MM or YYYY-MM-DD HH:MM";
const END_EXPECTED = "expected: a delay such as 2d or a date such as 2026-12-31";
export const ZONE_EXPECTED = "expected: an IANA zone such as Europe/Berlin";
const CLOCK = /^\d{1,2}:\d{2}(:\d{2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

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
    return CLOCK.test(word) || DATE.test(word) || word === "today" || word === "tomorrow";
}

/** How many of `list`'s first words a time takes (1 for HH:MM, else 2); what they say is not checked. */
export function timeWords(list) {
    return list.length > 0 && CLOCK.test(list[0]) ? 1 : 2;
}

/**
 * A time for the server to read in another zone: HH:MM (the next time that clock shows it) or
 * YYYY-MM-DD HH:MM, checked and returned as written ("9:00", "2026-12-24 18:00").
 */
export function wallClock(list) {
    if (list.length === 0) {
        throw new CommandError("the time is missing (" + TIME_EXPECTED + ")");
    }
    if (list[0] === "today" || list[0] === "tomorrow") {
        throw new CommandError("'" + list[0] + "' is this browser's day, not the zone's (expected: HH:MM, the next "
            + "time the zone's clock shows it, or YYYY-MM-DD HH:MM)");
    }
    const used = timeWords(list);
    if (used === 2) {
        date(list[0]);
        if (list.length < 2) {
            throw new CommandError("'" + list[0] + "' is not a time (" + TIME_EXPECTED + ")");
        }
    }
    clockOf(list[used - 1]);
    return list.slice(0, used).join(" ");
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
    if (CLOCK.test(first)) {
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
    const [h, mi, s] = clockOf(clock);
    const written = list.slice(0, used).join(" ");
    const when = local(day, [h, mi, s], written);
    if (when <= now) {
        const hint = used === 1 ? "; for tomorrow: tomorrow " + clock : "";
        const it = localTime(now).endsWith(":00") ? localTime(now).slice(0, 5) : localTime(now);
        throw new CommandError(written + " has passed (it is " + localDate(now) + " " + it + ")" + hint);
    }
    return { when, words: used };
}

/** Hours, minutes and seconds of a time of day (H:MM, HH:MM, HH:MM:SS). */
function clockOf(clock) {
    if (!CLOCK.test(clock)) {
        throw new CommandError("'" + clock + "' is not a time of day (" + TIME_EXPECTED + ")");
    }
    const [h, mi, s = 0] = clock.split(":").map(Number);
    if (h > 23 || mi > 59 || s > 59) {
        throw new CommandError("'" + clock + "' is not a time of day (expected: 00:00 to 23:59)");
    }
    return [h, mi, s];
}

function date(word) {
    if (!DATE.test(word)) {
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

// Ends.

/**
 * The end a word names, epoch millis: a delay from `now` (2d), or a date (2026-12-31), whose last
 * millisecond in the browser's zone is the end (an end is inclusive).
 */
export function parseEnd(word, now) {
    if (word === undefined || word === "") {
        throw new CommandError("the end is missing (" + END_EXPECTED + ")");
    }
    if (DATE.test(word)) {
        const [y, m, d] = date(word);
        const end = new Date(y, m - 1, d + 1).getTime() - 1;
        if (end <= now) {
            throw new CommandError(word + " has passed (it is " + localDate(now) + "; " + END_EXPECTED + ")");
        }
        return end;
    }
    if (!/^\d/.test(word)) {
        throw new CommandError("'" + word + "' is not an end (" + END_EXPECTED + ")");
    }
    const millis = parseDelay(word);
    if (millis === 0) {
        throw new CommandError("the end must be after now (" + END_EXPECTED + ")");
    }
    return now + millis;
}

// Zones.

/** The browser's time zone ("Europe/Berlin"; "UTC" when it cannot say). */
export function browserZone() {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** The canonical name of IANA zone `name` ("asia/tokyo" is "Asia/Tokyo"), or null when the browser knows none. */
export function knownZone(name) {
    if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) {
        return null;
    }
    try {
        return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
    } catch (e) {
        return null; // a RangeError: not a zone
    }
}

/**
 * The zone a word after a time names: "their" (the recipient's), a Region/City zone or UTC, in
 * canonical form; null for any other word (then the text begins there).
 */
export function zoneWord(word) {
    if (word === undefined) {
        return null;
    }
    if (word.toLowerCase() === "their") {
        return "their";
    }
    return word.includes("/") || /^(utc|gmt)$/i.test(word) ? knownZone(word) : null;
}
