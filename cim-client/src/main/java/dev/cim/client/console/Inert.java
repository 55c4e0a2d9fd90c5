package dev.cim.client.console;

/**
 * Makes text from the network safe to print on a terminal: nothing in it can move the cursor, clear
 * the screen, set the window title, reorder what follows, or start a line that looks like another
 * message. Control characters are shown, not obeyed:
 * <ul>
 *   <li>C0 controls and DEL in caret notation ({@code ESC} as {@code ^[}, {@code BEL} as
 *       {@code ^G}, a carriage return as {@code ^M}), so an escape sequence prints as harmless text;</li>
 *   <li>C1 controls (U+0080 to U+009F, which some terminals obey like {@code ESC [}) and the bidi
 *       controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069, which reorder the text
 *       around them) as {@code <U+202E>};</li>
 *   <li>a tab as one space;</li>
 *   <li>a line break, for a multi-line message, as a new line indented under the message, so a
 *       second line can never pass for a message of its own.</li>
 * </ul>
 */
public final class Inert {

    /** What continuation lines of a multi-line message start with. */
    public static final String CONTINUATION = "    | ";

    private Inert() {
    }

    /** {@code text} safe to print; line breaks become indented continuation lines. */
    public static String text(String text) {
        return render(text, true);
    }

    /** {@code text} safe to print on one line: a line break shows as {@code ^J}. */
    public static String line(String text) {
        return render(text, false);
    }

    private static String render(String text, boolean multiline) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String replacement = replacement(c, multiline);
            if (replacement != null) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 16).append(text, 0, i);
                }
                out.append(replacement);
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }

    private static String replacement(char c, boolean multiline) {
        if (c == '\n') {
            return multiline ? System.lineSeparator() + CONTINUATION : "^J";
        }
        if (c == '\t') {
            return " ";
        }
        if (c < 0x20) {
            return "^" + (char) (c + 0x40);
        }
        if (c == 0x7F) {
            return "^?";
        }
        if ((c >= 0x80 && c <= 0x9F) || c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E)
                || (c >= 0x2066 && c <= 0x2069)) {
            return String.format("<U+%04X>", (int) c);
        }
        return null;
    }
}
