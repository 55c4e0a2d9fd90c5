package dev.cim.server.session;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link SessionRegistry} in memory: user name &rarr; that user's sessions. Each user's list is
 * copy-on-write, since sessions change at login and logout but are read on every message.
 */
public final class LocalSessionRegistry implements SessionRegistry {

    private final ConcurrentHashMap<String, List<Session>> byUser = new ConcurrentHashMap<>();

    @Override
    public int add(Session session) {
        int[] count = new int[1];
        byUser.compute(session.user(), (user, sessions) -> {
            List<Session> list = sessions == null ? new CopyOnWriteArrayList<>() : sessions;
            list.add(session);
            count[0] = list.size();
            return list;
        });
        return count[0];
    }

    @Override
    public int remove(Session session) {
        int[] count = {-1};
        byUser.computeIfPresent(session.user(), (user, sessions) -> {
            if (sessions.remove(session)) {
                count[0] = sessions.size();
            }
            return sessions.isEmpty() ? null : sessions;
        });
        return count[0];
    }

    @Override
    public List<Session> sessionsOf(String user) {
        List<Session> sessions = byUser.get(user);
        return sessions == null ? List.of() : List.copyOf(sessions);
    }

    @Override
    public Collection<Session> all() {
        List<Session> all = new ArrayList<>();
        byUser.values().forEach(all::addAll);
        return all;
    }

    @Override
    public Map<String, Integer> userSessionCounts() {
        Map<String, Integer> counts = new HashMap<>();
        byUser.forEach((user, sessions) -> counts.put(user, sessions.size()));
        return counts;
    }
}
