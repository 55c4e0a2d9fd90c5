package dev.cim.common;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;

/**
 * What a failure is called when it is told to a person in one line: the message of its root cause.
 * The outer exceptions of a failure mostly say where it passed ("Error creating bean ...",
 * "failed to build the TLS context"), the root says what went wrong ("Connection refused",
 * "WRONGPASS invalid username-password pair"), and the caller's own words already say where.
 */
public final class Failures {

    private Failures() {
    }

    /**
     * The message of {@code failure}'s root cause (the last of its chain of causes), or the simple
     * name of the root's class when that message is null or blank (the full name for a class without
     * a simple one), so that the line never reads {@code "null"} or {@code "()"}. A chain of causes that loops back on itself (which
     * {@link Throwable#initCause} allows) ends at the last throwable not seen before.
     *
     * @throws NullPointerException if {@code failure} is null
     */
    public static String rootMessage(Throwable failure) {
        Objects.requireNonNull(failure, "failure (expected: a throwable)");
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Throwable root = failure;
        seen.add(root);
        while (root.getCause() != null && seen.add(root.getCause())) {
            root = root.getCause();
        }
        String message = root.getMessage();
        if (message != null && !message.isBlank()) {
            return message;
        }
        String simpleName = root.getClass().getSimpleName();
        return simpleName.isEmpty() ? root.getClass().getName() : simpleName;
    }
}
