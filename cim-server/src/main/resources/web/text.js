/**
 * text.js: how the page writes things for people. Pure functions, no DOM, no clock of their own.
 *
 *   inert(text)        a text from the network made harmless to show: control characters are
 *                      shown, not obeyed (ESC as ^[, as the console shows them), bidi controls as
 *                      <U+202E>; line breaks and tabs stay (the page shows them as text)
 *   formatDelay(ms)    a delay as :delay reads it: 1h30m, 5s, 1s500ms
 *   roundedDelay(ms)   the same, to the second from one second up ("delayed 5s")
 *   when(ms, now)      a time: 14:05:10 today, 2027-01-05 09:00 otherwise (the browser's zone)
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
