package dev.cim.common.protocol;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rule for user names, shared so a client can check a name before the server refuses it: 1 to
 * {@value #MAX_LENGTH} characters of ASCII letters, digits, {@code '_'}, {@code '-'} and {@code '.'},
 * and not {@value ChatRules#EVERYONE}, which addresses every online user. Names are case-sensitive.
 */
public final class UserNames {

    /** The longest user name, in characters. */
    public static final int MAX_LENGTH = 32;

    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9_.-]{1," + MAX_LENGTH + "}");

    private UserNames() {
    }

    /** Why {@code name} is not a valid user name, or empty when it is. */
    public static Optional<String> problem(String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of("a user name is required");
        }
        if (ChatRules.EVERYONE.equals(name)) {
            return Optional.of("'" + ChatRules.EVERYONE + "' is reserved for messages to all users");
        }
        if (!ALLOWED.matcher(name).matches()) {
            return Optional.of("invalid user name (expected: 1 to " + MAX_LENGTH
                    + " of A-Z a-z 0-9 _ - .)");
        }
        return Optional.empty();
    }

    /** True when {@code name} is a valid user name. */
    public static boolean isValid(String name) {
        return problem(name).isEmpty();
    }
}
