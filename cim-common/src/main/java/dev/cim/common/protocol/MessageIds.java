package dev.cim.common.protocol;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Message ids: {@code "<origin>-<sequence>"}, the origin in 16 lower-case hex digits and the
 * sequence in decimal, e.g. {@code "9f86d081884c7d65-42"}. A client picks its origin, a random
 * non-zero 64-bit number, when it starts, and numbers its requests from 1 within it; the id of a
 * message is its origin and its request's number. So an id is unique per sender without asking
 * anyone, stays the same when the message is sent again, and never repeats across restarts of a
 * client (a new origin each time, never a counter that starts again at 1).
 */
public final class MessageIds {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private MessageIds() {
    }

    /** A new random origin, never 0. */
    public static long newOrigin() {
        long origin;
        do {
            origin = RANDOM.nextLong();
        } while (origin == 0);
        return origin;
    }

    /**
     * The id of request {@code sequence} of {@code origin}.
     *
     * @throws IllegalArgumentException if {@code origin} is 0 or {@code sequence} is not positive
     */
    public static String of(long origin, long sequence) {
        String prefix = prefix(origin); // first: a zero origin is refused before the sequence is looked at
        checkSequence(sequence);
        return prefix + sequence;
    }

    /**
     * The id of request {@code sequence} of {@code origin} as UTF-8 bytes, for a message built with
     * {@code setIdBytes}: one array and its wrapper, where {@link #of} and protobuf's encoding of its
     * string make some eight strings, arrays and wrappers on the way.
     *
     * @throws IllegalArgumentException if {@code origin} is 0 or {@code sequence} is not positive
     */
    public static ByteString utf8(long origin, long sequence) {
        checkOrigin(origin);
        checkSequence(sequence);
        int digits = 1;
        for (long rest = sequence / 10; rest > 0; rest /= 10) {
            digits++;
        }
        byte[] id = new byte[17 + digits];
        for (int i = 15; i >= 0; i--) {
            id[i] = HEX_DIGITS[(int) (origin & 0xf)];
            origin >>>= 4;
        }
        id[16] = '-';
        for (int i = id.length - 1; i > 16; i--) {
            id[i] = (byte) ('0' + sequence % 10);
            sequence /= 10;
        }
        return UnsafeByteOperations.unsafeWrap(id); // the array is ours alone, never written again
    }

    /**
     * What the ids of {@code origin}'s messages begin with, {@code "<origin>-"}: {@code of(origin, n)}
     * is {@code prefix(origin) + n}, for a client that makes the ids of many of its messages.
     */
    public static String prefix(long origin) {
        checkOrigin(origin);
        return HEX.toHexDigits(origin) + "-";
    }

    private static void checkOrigin(long origin) {
        if (origin == 0) {
            throw new IllegalArgumentException("origin: 0 (expected: a random non-zero number)");
        }
    }

    private static void checkSequence(long sequence) {
        if (sequence <= 0) {
            throw new IllegalArgumentException("sequence: " + sequence + " (expected: > 0)");
        }
    }

    /** The origin as it appears in ids and logs: 16 hex digits. */
    public static String origin(long origin) {
        return HEX.toHexDigits(origin);
    }

    /** True when {@code id} has the form of a message id. */
    public static boolean isValid(String id) {
        if (id == null || id.length() < 18 || id.length() > 36 || id.charAt(16) != '-') {
            return false;
        }
        for (int i = 0; i < 16; i++) {
            if (Character.digit(id.charAt(i), 16) < 0) {
                return false;
            }
        }
        for (int i = 17; i < id.length(); i++) {
            if (id.charAt(i) < '0' || id.charAt(i) > '9') {
                return false;
            }
        }
        return id.charAt(17) != '0';
    }
}
