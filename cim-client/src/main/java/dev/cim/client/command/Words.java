package dev.cim.client.command;

import java.util.ArrayList;
import java.util.List;

/**
 * The words of what follows a command's name, taken off either end while what is left stays as
 * typed, inner spaces and all: the text of a message is what remains once its command's words are
 * taken. Words are parted by whitespace ({@link Character#isWhitespace}). Not thread-safe: one per
 * line parsed.
 */
final class Words {

    private String rest;

    Words(String text) {
        rest = text.strip();
    }

    boolean isEmpty() {
        return rest.isEmpty();
    }

    /** The word {@code i} places from the front (0: the first), or "" when there are not that many. */
    String peek(int i) {
        List<String> all = list();
        return i < all.size() ? all.get(i) : "";
    }

    /** The word {@code i} places from the end (0: the last), or "" when there are not that many. */
    String peekLast(int i) {
        List<String> all = list();
        return i < all.size() ? all.get(all.size() - 1 - i) : "";
    }

    /** Takes the first word off the front and returns it; "" when there is none. */
    String take() {
        int end = 0;
        while (end < rest.length() && !Character.isWhitespace(rest.charAt(end))) {
            end++;
        }
        String word = rest.substring(0, end);
        rest = rest.substring(end).strip();
        return word;
    }

    /** Takes {@code n} words off the front. */
    void skip(int n) {
        for (int i = 0; i < n; i++) {
            take();
        }
    }

    /** Takes the last word off the end and returns it; "" when there is none. */
    String takeLast() {
        int start = rest.length();
        while (start > 0 && !Character.isWhitespace(rest.charAt(start - 1))) {
            start--;
        }
        String word = rest.substring(start);
        rest = rest.substring(0, start).strip();
        return word;
    }

    /**
     * Takes a part in double quotes off the front ({@code "0 9 * * 1-5" @bob hi}) and returns what is
     * between the quotes; null, taking nothing, when the line does not start with a quote or the
     * closing one is missing.
     */
    String takeQuoted() {
        int close = rest.startsWith("\"") ? rest.indexOf('"', 1) : -1;
        if (close < 0) {
            return null;
        }
        String quoted = rest.substring(1, close);
        rest = rest.substring(close + 1).strip();
        return quoted;
    }

    /** The words left, in order. */
    List<String> list() {
        List<String> words = new ArrayList<>();
        int i = 0;
        while (i < rest.length()) {
            int start = i;
            while (i < rest.length() && !Character.isWhitespace(rest.charAt(i))) {
                i++;
            }
            words.add(rest.substring(start, i));
            while (i < rest.length() && Character.isWhitespace(rest.charAt(i))) {
                i++;
            }
        }
        return words;
    }

    int size() {
        return list().size();
    }

    /** What is left, as typed (without the whitespace at either end). */
    String rest() {
        return rest;
    }
}
