package dev.cim.server.redis.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the embedded Redis is locked down against the other processes of the machine. Bound to
 * 127.0.0.1 it is out of the network's reach, but any local process, of any user, could connect:
 * read the password hashes and inboxes, publish on the node bus as any user, overwrite a hash, or
 * {@code CONFIG SET dir} and {@code SAVE} to write a file anywhere Redis may. So:
 * <ul>
 * <li><b>A password</b> ({@code requirepass}): 32 random bytes, hex, generated at the first start
 *     into {@value EmbeddedRedisServer#PASSWORD_FILE} in the data directory, mode 0600, and reused at
 *     every start, so that other nodes configured with it keep working. It is never on a command
 *     line (the process list is public): Redis reads it from its configuration file, also 0600, and
 *     cim's own connection gets it through {@code EmbeddedRedisConfiguration}. The data directory is
 *     made 0700: the append-only file holds the hashes and messages.</li>
 * <li><b>No {@code CONFIG}, {@code DEBUG} or {@code MODULE}</b>: renamed to nothing, which removes them,
 *     on every version (Redis 7's {@code enable-debug-command no} and {@code enable-module-command no}
 *     are its defaults, and are set too). Even with the password, nobody can point Redis' files
 *     elsewhere, load a module, or crash it. cim needs none of them: Lettuce and Spring Data Redis
 *     do not call {@code CONFIG} (keyspace notifications are not used), and the health check uses
 *     {@code INFO}.</li>
 * <li><b>A memory limit that never loses chat data</b>: {@code maxmemory} with the {@code noeviction}
 *     policy. Past the limit Redis refuses writes with an {@code OOM} error, which the server turns
 *     into "the server's storage is full" for the sender; nothing stored is ever evicted to make room.
 *     Reads and deletions still work, so inboxes can still be delivered and drained.</li>
 * </ul>
 */
final class RedisLockdown {

    private static final Logger log = LoggerFactory.getLogger(RedisLockdown.class);
    private static final int PASSWORD_BYTES = 32;
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final SecureRandom RANDOM = new SecureRandom();

    private RedisLockdown() {
    }

    /** The settings of the class comment, as lines of a Redis configuration file. */
    static String settings(String password, long maxmemory, RedisExecutable.Version version) {
        StringBuilder c = new StringBuilder();
        c.append("requirepass ").append(quote(password)).append('\n');
        c.append("maxmemory ").append(maxmemory).append('\n');
        c.append("maxmemory-policy noeviction\n");
        for (String command : new String[] {"CONFIG", "DEBUG", "MODULE"}) {
            c.append("rename-command ").append(command).append(" \"\"\n");
        }
        if (version.atLeast7()) {
            c.append("enable-debug-command no\n");
            c.append("enable-module-command no\n");
            c.append("enable-protected-configs no\n");
        }
        return c.toString();
    }

    /**
     * The password in {@code file}, made (random, mode 0600) if the file is missing or empty; a file
     * others may read is made 0600 again.
     */
    static String password(Path file) throws IOException {
        if (Files.exists(file)) {
            ownerOnly(file, OWNER_FILE);
            String kept = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (!kept.isEmpty()) {
                return kept;
            }
            log.warn("The embedded Redis password file {} is empty; a new password is generated", file);
        }
        byte[] random = new byte[PASSWORD_BYTES];
        RANDOM.nextBytes(random);
        String password = HexFormat.of().formatHex(random);
        writePrivate(file, password + "\n");
        return password;
    }

    /** Writes {@code text} to {@code file}, readable by its owner only from the first byte on. */
    static void writePrivate(Path file, String text) throws IOException {
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(temp);
        try {
            Files.createFile(temp, posix(OWNER_FILE));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(temp);
        } catch (FileAlreadyExistsException e) {
            throw new IOException("another process is writing " + temp, e);
        }
        Files.writeString(temp, text, StandardCharsets.UTF_8);
        try {
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Creates {@code dir} if missing, and makes it accessible to its owner only. */
    static void privateDirectory(Path dir) throws IOException {
        Files.createDirectories(dir);
        ownerOnly(dir, OWNER_DIRECTORY);
    }

    /** {@code value} as a double-quoted Redis configuration argument. */
    static String quote(String value) {
        StringBuilder q = new StringBuilder("\"");
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c == '"' || c == '\\') {
                q.append('\\').append((char) c);
            } else if (c < 0x20 || c >= 0x7f) {
                q.append(String.format("\\x%02x", c));
            } else {
                q.append((char) c);
            }
        }
        return q.append('"').toString();
    }

    private static void ownerOnly(Path path, Set<PosixFilePermission> wanted) throws IOException {
        try {
            Set<PosixFilePermission> now = Files.getPosixFilePermissions(path);
            if (!now.equals(wanted)) {
                Files.setPosixFilePermissions(path, wanted);
                log.info("{} was {}; made {} (the embedded Redis' data and password are private)", path,
                        PosixFilePermissions.toString(now), PosixFilePermissions.toString(wanted));
            }
        } catch (UnsupportedOperationException notPosix) {
            // Not a POSIX file system (Windows): its own access control applies.
        }
    }

    private static FileAttribute<?>[] posix(Set<PosixFilePermission> permissions) {
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)};
    }
}
