package dev.cim.common.protocol;

import java.util.Locale;
import java.util.Optional;

/**
 * The rule for user names, shared so a client can check a name before the server refuses it.
 *
 * <ul>
 *   <li><b>Characters.</b> 1 to {@value #MAX_LENGTH} ASCII letters, digits, {@code '_'}, {@code '-'}
 *       and {@code '.'}, beginning and ending with a letter or digit, with no two of {@code _-.} in a
 *       row. ASCII only, so no letter from another script can pass for a Latin one ({@code 'а'},
 *       Cyrillic, for {@code 'a'}), and a name cannot hide a look-alike in trailing punctuation
 *       ({@code "alice."}).</li>
 *   <li><b>Case.</b> A name means the same in any case: {@link #canonical} lower-cases it, and the
 *       server knows every user by that form ({@code "Alice"} logs in as {@code "alice"}).</li>
 *   <li><b>Look-alikes.</b> Two accounts may not share a {@link #skeleton}: the name with its
 *       punctuation dropped and the characters that read alike in common fonts folded together
 *       ({@code 0}/{@code o}, {@code 1}/{@code l}, {@code rn}/{@code m}, {@code vv}/{@code w}), so
 *       {@code "a1ice"}, {@code "al.ice"} and {@code "a_lice"} cannot be registered beside {@code "alice"}.
 *       The folds are the ones of Unicode's confusables data (UTS #39) that stay within the characters
 *       above.</li>
 *   <li><b>Reserved.</b> {@value ChatRules#EVERYONE} addresses every online user.</li>
 * </ul>
 */
public final class UserNames {

    /** The longest user name, in characters. */
    public static final int MAX_LENGTH = 32;

    private static final String EXPECTED = "expected: 1 to " + MAX_LENGTH
            + " of A-Z a-z 0-9 _ - ., beginning and ending with a letter or digit, no two of _ - . in a row";

    private UserNames() {
    }

    /** Why {@code name} is not a valid user name, or empty when it is. */
    public static Optional<String> problem(String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of("a user name is required");
        }
        if (!wellFormed(name)) {
            return Optional.of("invalid user name (" + EXPECTED + ")");
        }
        if (ChatRules.EVERYONE.equalsIgnoreCase(name)) {
            return Optional.of("'" + ChatRules.EVERYONE + "' is reserved for messages to all users");
        }
        return Optional.empty();
    }

    /**
     * The characters and shape of the rule, in one pass. A loop rather than two regular expressions:
     * every scheduled message's recipient is checked by the server and again by the client that reads
     * the answer, and the expressions took 5 to 7 % of each one's CPU when scheduling.
     */
    private static boolean wellFormed(String name) {
        if (name.length() > MAX_LENGTH) {
            return false;
        }
        boolean afterPunctuation = true; // so the first must be a letter or digit
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
                afterPunctuation = false;
            } else if ((c == '_' || c == '.' || c == '-') && !afterPunctuation) {
                afterPunctuation = true;
            } else {
                return false;
            }
        }
        return !afterPunctuation; // and so must the last
    }

    /** True when {@code name} is a valid user name. */
    public static boolean isValid(String name) {
        return problem(name).isEmpty();
    }

    /** The form the server knows a user by: {@code name} in lower case. */
    public static String canonical(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /**
     * What {@code name} looks like: two valid names with the same skeleton read alike, and may not
     * both have an account.
     */
    public static String skeleton(String name) {
        String folded = canonical(name)
                .replace("_", "").replace("-", "").replace(".", "")
                .replace('0', 'o').replace('1', 'l');
        // Multi-letter folds after the single ones, so "rn" formed by a fold is caught too.
        return folded.replace("rn", "m").replace("vv", "w");
    }
}
