package dev.cim.client.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SeenIdsTest {

    @TempDir
    Path dir;

    // In memory.

    @Test
    void inMemory_markSeen_isTrueTheFirstTimeOnly() {
        SeenIds seen = SeenIds.inMemory(10);

        assertThat(seen.markSeen("bob/a-1")).isTrue();
        assertThat(seen.markSeen("bob/a-1")).isFalse();
        assertThat(seen.markSeen("carol/a-1")).as("another sender's id").isTrue();
    }

    @Test
    void inMemory_pastCapacity_forgetsTheOldestFirst() {
        SeenIds seen = SeenIds.inMemory(3);
        for (String id : List.of("a", "b", "c", "d")) {
            seen.markSeen(id);
        }

        assertThat(seen.markSeen("d")).isFalse();
        assertThat(seen.markSeen("c")).isFalse();
        assertThat(seen.markSeen("b")).isFalse();
        assertThat(seen.markSeen("a")).as("the oldest, evicted by d").isTrue();
        assertThat(seen.markSeen("b")).as("evicted in turn by a").isTrue();
    }

    @Test
    void inMemory_holdsExactlyItsCapacity() {
        MemorySeenIds seen = new MemorySeenIds(1000);
        IntStream.range(0, 5000).forEach(i -> seen.markSeen("id-" + i));

        assertThat(seen.size()).isEqualTo(1000);
        assertThat(seen.ids()).first().isEqualTo("id-4000");
        assertThat(seen.markSeen("id-3999")).isTrue();
        assertThat(seen.markSeen("id-4001")).isFalse();
    }

    @ParameterizedTest(name = "capacity {0}")
    @ValueSource(ints = {0, -1})
    void inMemory_capacityBelowOne_isRefused(int capacity) {
        assertThatThrownBy(() -> SeenIds.inMemory(capacity)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("capacity: " + capacity + " (expected: >= 1)");
    }

    // None.

    @Test
    void none_markSeen_isAlwaysTrue() {
        SeenIds seen = SeenIds.none();

        assertThat(seen.markSeen("bob/a-1")).isTrue();
        assertThat(seen.markSeen("bob/a-1")).isTrue();
        seen.sync();
        assertThat(seen.markSeen("bob/a-1")).isTrue();
    }

    // In a file.

    @Test
    void file_reopened_remembersWhatWasSyncedBeforeTheRestart() {
        Path file = dir.resolve("alice").resolve("seen-ids"); // the directory is made on open
        SeenIds before = SeenIds.file(file, 100);
        before.markSeen("bob/a-1");
        before.markSeen("bob/a-2");
        before.sync();

        SeenIds after = SeenIds.file(file, 100); // a new process: only the file carries over

        assertThat(after.markSeen("bob/a-1")).as("seen before the restart").isFalse();
        assertThat(after.markSeen("bob/a-2")).isFalse();
        assertThat(after.markSeen("bob/a-3")).isTrue();
    }

    @Test
    void file_reopenedTwice_keepsIdsFromEveryRun() {
        Path file = dir.resolve("seen-ids");
        SeenIds first = SeenIds.file(file, 100);
        first.markSeen("one");
        first.sync();
        SeenIds second = SeenIds.file(file, 100);
        second.markSeen("two");
        second.sync();

        SeenIds third = SeenIds.file(file, 100);

        assertThat(third.markSeen("one")).isFalse();
        assertThat(third.markSeen("two")).isFalse();
    }

    @Test
    void file_grownPastTwiceItsCapacity_isCompactedToTheLastCapacityIds() throws IOException {
        Path file = dir.resolve("seen-ids");
        SeenIds seen = SeenIds.file(file, 3);
        for (String id : List.of("a", "b", "c", "d", "e", "f")) {
            seen.markSeen(id);
        }
        seen.sync();
        assertThat(lines(file)).as("at twice the capacity, not yet past it").hasSize(6);

        seen.markSeen("g");
        seen.sync();

        assertThat(lines(file)).containsExactly("e", "f", "g");
        seen.markSeen("h");
        seen.sync();
        assertThat(lines(file)).as("appending goes on after a compaction").containsExactly("e", "f", "g", "h");
        SeenIds reopened = SeenIds.file(file, 3);
        assertThat(reopened.markSeen("h")).isFalse();
        assertThat(reopened.markSeen("a")).isTrue();
        assertThat(Files.exists(file.resolveSibling("seen-ids.tmp"))).isFalse();
    }

    @Test
    void file_reopenedWithASmallerCapacity_keepsTheNewestIds() throws IOException {
        Path file = dir.resolve("seen-ids");
        Files.write(file, List.of("a", "b", "c", "d", "", "e"), StandardCharsets.UTF_8);

        SeenIds seen = SeenIds.file(file, 2);

        assertThat(seen.markSeen("e")).isFalse();
        assertThat(seen.markSeen("d")).isFalse();
        assertThat(seen.markSeen("c")).isTrue();
    }

    @Test
    void file_inAPathThatCannotBeADirectory_failsSayingWhichFile() throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("plain-file"), "x");

        assertThatThrownBy(() -> SeenIds.file(notADirectory.resolve("seen-ids"), 10))
                .hasMessageContaining("seen-messages file " + notADirectory.resolve("seen-ids"));
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
    }
}
