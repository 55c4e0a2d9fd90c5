package dev.cim.benchmark;

import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/** Finds a timer's live threads by their names, which every adapter makes unique per instance. */
final class TimerThreads {

    private TimerThreads() {
    }

    /** The live threads named exactly one of {@code names}; possibly none (pools start lazily). */
    static List<Thread> named(String... names) {
        List<String> wanted = List.of(names);
        return matching(thread -> wanted.contains(thread.getName()));
    }

    /** The live threads whose names start with {@code prefix}. */
    static List<Thread> withPrefix(String prefix) {
        return matching(thread -> thread.getName().startsWith(prefix));
    }

    /** The one live thread named {@code name}, or an exception. */
    static Thread the(String name) {
        List<Thread> found = named(name);
        if (found.size() != 1) {
            throw new IllegalStateException("expected one live thread named " + name + ", found " + found);
        }
        return found.get(0);
    }

    private static List<Thread> matching(Predicate<Thread> test) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).filter(test)
                .sorted(Comparator.comparing(Thread::getName)).toList();
    }
}
