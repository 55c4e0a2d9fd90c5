package dev.cim.client.core;

import java.time.Instant;

/**
 * A group, as the server said it was.
 *
 * @param name      its name, without the {@code #}
 * @param owner     who may remove others from it
 * @param open      true when anyone may join it
 * @param members   how many members it has
 * @param createdAt when it was made
 */
public record GroupInfo(String name, String owner, boolean open, int members, Instant createdAt) {

    @Override
    public String toString() {
        return "#" + name;
    }
}
