/**
 * text.js: how the page writes things for people. Pure functions, no DOM, no clock of their own.
 *
 *   inert(text)        a text from the network made harmless to show: control characters are
 *                      shown, not obeyed (ESC as ^[, as the console shows them), bidi controls as
 *                      <U+202E>; line breaks and tabs stay (the page shows them as text)
 *   formatDelay(ms)    a delay as :delay reads it: 1h30m, 5s, 1s500ms
 *   roundedDelay(ms)   the same, to the second from one second up ("delayed 5s")
 *   when(ms, now)      a time: 14:05:10 today, 2027-01-05 09:00 otherwise (the browser's zone)
 *   zoneTime(ms, zone) the same in another zone: 09:00 on that zone's today, else with the date
 *   dueText(m)         when a scheduled message goes: its time, or "when bob logs in"
 *   ruleText(m)        a series' rule: "every weekday 9:00 (Europe/Berlin), 5 times"
 *   lateness(ms)       "on time", "120ms late", "3s late"
 *
 * The page never builds HTML from text: view.js puts every string into the DOM with textContent.
 * inert() is for what textContent cannot help with, characters that are invisible or that reorder
 * the text around them.
 */

/** Units from largest to smallest, as DelayParser (Java) and commands.js read them. */
export const UNITS = [["d", 86_400_000], ["h", 3_600_000], ["m", 60_000], ["s", 1_000], ["ms", 1]];

/** A text safe to show: C0 and C1 controls and DEL in caret or <U+XXXX> notation, bidi controls named. */
export function inert(text) {
    let out = "";
    for (const c of String(text)) {
        const code = c.codePointAt(0);
        if (c === "\n" || c === "\t") {
            out += c;
        } else if (code < 0x20) {
            out += "^" + String.fromCharCode(code + 0x40);
        } else if (code === 0x7f) {
            out += "^?";
        } else if ((code >= 0x80 && code <= 0x9f) || code === 0x061c || code === 0x200e || code === 0x200f
                || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) {
            out += "<U+" + code.toString(16).toUpperCase().padStart(4, "0") + ">";
        } else {
            out += c;
        }
    }
    return out;
}

/** Like inert(), on one line: a line break shows as ^J (for names and one-line notices). */
export function inertLine(text) {
    return inert(text).replace(/\n/g, "^J").replace(/\t/g, " ");
}

/** A delay in milliseconds as :delay reads it ("1h30m", "0s"). */
export function formatDelay(millis) {
    let left = Math.max(0, Math.floor(millis));
    if (left === 0) {
        return "0s";
    }
    let text = "";
    for (const [symbol, unit] of UNITS) {
        const amount = Math.floor(left / unit);
        if (amount > 0) {
            text += amount + symbol;
            left -= amount * unit;
        }
    }
    return text;
}

/** Like formatDelay, rounded to the second from one second up: "in 3s" rather than "in 2s968ms". */
export function roundedDelay(millis) {
    if (millis < 1000) {
        return formatDelay(millis);
    }
    return formatDelay(Math.floor((millis + 500) / 1000) * 1000);
}

const two = (n) => String(n).padStart(2, "0");

/** The local date of epoch millis, YYYY-MM-DD. */
export function localDate(millis) {
    const d = new Date(millis);
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate());
}

/** The local clock time of epoch millis, HH:MM:SS. */
export function localTime(millis) {
    const d = new Date(millis);
    return two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds());
}

/** A time for people: the clock time when it is today, the date and minute otherwise. */
export function when(millis, now = Date.now()) {
    if (localDate(millis) === localDate(now)) {
        return localTime(millis);
    }
    return localDate(millis) + " " + localTime(millis).slice(0, 5);
}

/** The value a datetime-local input shows for epoch millis, to the second. */
export function pickerValue(millis) {
    return localDate(millis) + "T" + localTime(millis);
}

/** "1 message", "2 messages". */
export function count(n, noun) {
    return n + " " + noun + (n === 1 ? "" : "s");
}

/** Epoch millis in IANA zone `zone`: HH:MM on that zone's today, YYYY-MM-DD HH:MM otherwise. */
export function zoneTime(millis, zone, now = Date.now()) {
    const format = new Intl.DateTimeFormat("en-US", {
        timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
        hourCycle: "h23",
    });
    const parts = (ms) => Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
    const at = parts(millis);
    const today = parts(now);
    const clock = at.hour + ":" + at.minute;
    const day = at.year + "-" + at.month + "-" + at.day;
    return day === today.year + "-" + today.month + "-" + today.day ? clock : day + " " + clock;
}

/**
 * When a scheduled message (chats.js's form) goes: its due time, or for a "when online" one "when
 * bob logs in", with its deadline if it has one.
 */
export function dueText(m, now = Date.now()) {
    if (m.whenOnline) {
        return "when " + m.recipient + " logs in" + (m.deadline !== null ? " (until " + when(m.deadline, now) + ")" : "");
    }
    return when(m.dueAt, now);
}

/** A series' rule for people: "every 1d", "every weekday 9:00 (Europe/Berlin), 5 times, until 2027-01-05 00:00". */
export function ruleText(m, now = Date.now()) {
    const calendar = !/^\d+[smhdw]$/i.test(m.every.trim()); // an interval does not depend on a zone
    return "every " + m.every + (calendar && m.zone ? " (" + m.zone + ")" : "")
        + (m.times ? ", " + count(m.times, "time") : "") + (m.until ? ", until " + when(m.until, now) : "");
}

/** How late a message went, for the record: "on time", "120ms late", "3s late". */
export function lateness(millis) {
    return millis <= 0 ? "on time" : roundedDelay(millis) + " late";
}
