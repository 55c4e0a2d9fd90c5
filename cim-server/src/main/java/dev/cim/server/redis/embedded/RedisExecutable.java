package dev.cim.server.redis.embedded;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.embedded.core.ExecutableProvider;

/**
 * The redis-server binary the embedded Redis runs, and its version.
 *
 * <h3>Which binary, and why</h3>
 * The embedded-redis jar (1.4.4, the newest on Maven Central) ships Redis 6.2.11 for Linux x86-64,
 * which misses fixes made since (CVE-2022-24834 was fixed in 6.2.13) and has no
 * {@code enable-debug-command}/{@code enable-module-command}. A maintained package is newer and gets
 * security updates: Debian 12's {@code redis-server} is 7.0.15 with Debian's patches. So
 * {@code cim.server.redis.executable} empty (the default) means: the first {@code redis-server} on
 * the {@code PATH} that is {@link #PREFERRED_MAJOR} or later, else the bundled one, with a warning
 * that says how to get the newer one; the quick start keeps working on a machine without it. A path
 * names one binary (any version, used as given); {@code bundled} forces the jar's.
 *
 * <p>Only the binary is used: Debian's package also installs a system Redis service on port 6379,
 * which cim does not touch.
 *
 * @param path    the binary
 * @param version its version, {@code major.minor.patch}, as it reports it
 * @param source  where it came from, for the log: {@code PATH}, {@code bundled} or the setting
 */
public record RedisExecutable(Path path, Version version, String source) {

    /** The oldest major version picked from the {@code PATH} without being asked for. */
    public static final int PREFERRED_MAJOR = 7;

    /** The value of {@code cim.server.redis.executable} that forces the jar's binary. */
    public static final String BUNDLED = "bundled";

    private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.(\\d+)\\.(\\d+)");

    public RedisExecutable {
        if (path == null || version == null || source == null) {
            throw new IllegalArgumentException("path, version and source are required (got " + path + ", "
                    + version + ", " + source + ")");
        }
    }

    /** A Redis version. */
    public record Version(int major, int minor, int patch) implements Comparable<Version> {

        /** Reads {@code v=7.0.15} out of the output of {@code redis-server --version}. */
        public static Optional<Version> parse(String versionOutput) {
            Matcher m = VERSION.matcher(versionOutput);
            if (!m.find()) {
                return Optional.empty();
            }
            return Optional.of(new Version(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3))));
        }

        /** True from 7.0 on: the multi-part append-only file in {@code appendonlydir}, and Redis 7's settings. */
        public boolean atLeast7() {
            return major >= 7;
        }

        @Override
        public int compareTo(Version other) {
            int c = Integer.compare(major, other.major);
            if (c == 0) {
                c = Integer.compare(minor, other.minor);
            }
            return c != 0 ? c : Integer.compare(patch, other.patch);
        }

        @Override
        public String toString() {
            return major + "." + minor + "." + patch;
        }
    }

    /** What the resolution chose, and a warning to log when it fell back to the bundled binary. */
    public record Choice(RedisExecutable executable, Optional<String> warning) {
    }

    /**
     * Resolves {@code cim.server.redis.executable}: empty for the newest maintained binary there is
     * (see the class comment), {@code bundled}, or a path.
     *
     * @throws IllegalArgumentException if a path was given that is not a runnable redis-server
     * @throws IOException              if the bundled binary cannot be extracted
     */
    public static Choice resolve(String setting) throws IOException {
        return resolve(setting, System.getenv("PATH"));
    }

    /** {@link #resolve(String)} with {@code pathVariable} for the {@code PATH}. */
    static Choice resolve(String setting, String pathVariable) throws IOException {
        String value = setting == null ? "" : setting.strip();
        if (value.equals(BUNDLED)) {
            return new Choice(bundled(), Optional.empty());
        }
        if (!value.isEmpty()) {
            Path path = Path.of(value).toAbsolutePath();
            Version version = versionOf(path).orElseThrow(() -> new IllegalArgumentException(
                    "cim.server.redis.executable: " + value + " (expected: a runnable redis-server binary that "
                            + "answers --version, '" + BUNDLED + "', or empty for the newest one found)"));
            return new Choice(new RedisExecutable(path, version, "cim.server.redis.executable"), Optional.empty());
        }
        List<Path> candidates = onPath("redis-server", pathVariable);
        for (Path candidate : candidates) {
            Optional<Version> version = versionOf(candidate);
            if (version.isPresent() && version.get().major() >= PREFERRED_MAJOR) {
                return new Choice(new RedisExecutable(candidate, version.get(), "PATH"), Optional.empty());
            }
        }
        RedisExecutable bundled = bundled();
        String found = candidates.isEmpty() ? "no redis-server on the PATH"
                : "no redis-server " + PREFERRED_MAJOR + " or later on the PATH (found " + candidates + ")";
        return new Choice(bundled, Optional.of("The embedded Redis runs the redis-server " + bundled.version()
                + " bundled in the embedded-redis jar (" + found + "), which lacks security fixes of later "
                + "releases. Install a maintained one (Debian/Ubuntu: apt-get install redis-server) and restart, "
                + "or name one with --cim.server.redis.executable=PATH."));
    }

    /** The binary shipped in the embedded-redis jar, extracted to a temporary directory. */
    public static RedisExecutable bundled() throws IOException {
        File binary = ExecutableProvider.newJarResourceProvider().get();
        Path path = binary.toPath().toAbsolutePath();
        Version version = versionOf(path).orElseThrow(() -> new IOException("the bundled redis-server " + path
                + " does not answer --version"));
        return new RedisExecutable(path, version, BUNDLED);
    }

    /** Runs {@code binary --version}; empty if it cannot be run or says no version. */
    static Optional<Version> versionOf(Path binary) {
        if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
            return Optional.empty();
        }
        try {
            Process process = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
            process.getOutputStream().close();
            String output;
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Optional.empty();
            }
            return Version.parse(output);
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** The executables named {@code name} in the directories of {@code path} (as {@code PATH}), in order. */
    private static List<Path> onPath(String name, String path) {
        List<Path> found = new ArrayList<>();
        if (path == null) {
            return found;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name).toAbsolutePath();
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate) && !found.contains(candidate)) {
                found.add(candidate);
            }
        }
        return found;
    }

    @Override
    public String toString() {
        return "redis-server " + version + " (" + path + ", " + source + ")";
    }
}
