package dev.cim.server.redis;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.cim.common.protocol.MessageIds;
import dev.cim.common.protocol.proto.Scheduled;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * How one scheduled message is laid out in its bucket ({@link RedisScheduledStore}), kept small
 * because a million of them may wait for a year.
 *
 * <ul>
 *   <li>Its <em>name</em>, the sorted-set member and the hash field (stored twice): the user, a
 *       newline, then the id. An id of the usual form ({@code <16 hex digits>-<sequence>}, see
 *       {@link MessageIds}) is packed as the byte 1, the origin's 8 bytes and the sequence's
 *       digits: 12 bytes instead of 20. Any other id is the byte 2 and its text. User names have
 *       no newline, so the first newline ends the user.</li>
 *   <li>Its <em>body</em>, the hash value: the user's number for it, a newline, and the serialized
 *       {@link Scheduled} without the number and the id (the name has the id).</li>
 * </ul>
 */
final class ScheduledLayout {

    private static final byte PACKED = 1;
    private static final byte TEXT = 2;
    /** Origin digits in an id, then the dash. */
    private static final int ORIGIN_DIGITS = 16;

    private ScheduledLayout() {
    }

    /** The name of message {@code id} of {@code user}. */
    static byte[] name(String user, String id) {
        byte[] userBytes = RedisBytes.of(user);
        if (MessageIds.isValid(id)) {
            long origin = Long.parseUnsignedLong(id, 0, ORIGIN_DIGITS, 16);
            byte[] sequence = id.substring(ORIGIN_DIGITS + 1).getBytes(StandardCharsets.US_ASCII);
            return ByteBuffer.allocate(userBytes.length + 2 + Long.BYTES + sequence.length)
                    .put(userBytes).put((byte) '\n').put(PACKED).putLong(origin).put(sequence).array();
        }
        byte[] text = RedisBytes.of(id);
        return ByteBuffer.allocate(userBytes.length + 2 + text.length)
                .put(userBytes).put((byte) '\n').put(TEXT).put(text).array();
    }

    /** The user of a name. */
    static String user(byte[] name) {
        return new String(name, 0, newline(name), StandardCharsets.UTF_8);
    }

    /** The message id of a name. */
    static String id(byte[] name) {
        int start = newline(name) + 1;
        if (start >= name.length) {
            throw new IllegalStateException("unreadable scheduled message name: no id after the user");
        }
        if (name[start] == PACKED && name.length > start + 1 + Long.BYTES) {
            long origin = ByteBuffer.wrap(name, start + 1, Long.BYTES).getLong();
            int digits = start + 1 + Long.BYTES;
            return MessageIds.origin(origin) + '-'
                    + new String(name, digits, name.length - digits, StandardCharsets.US_ASCII);
        }
        if (name[start] == TEXT) {
            return new String(name, start + 1, name.length - start - 1, StandardCharsets.UTF_8);
        }
        throw new IllegalStateException("unreadable scheduled message name: unknown id form " + name[start]);
    }

    /** What {@code RedisScheduledStore}'s register script is given: the body without the number's line. */
    static byte[] draft(Scheduled draft) {
        return draft.toBuilder().clearNumber().clearId().build().toByteArray();
    }

    /** The body of {@code message}. */
    static byte[] body(Scheduled message) {
        byte[] number = RedisBytes.of(message.getNumber());
        byte[] draft = draft(message);
        return ByteBuffer.allocate(number.length + 1 + draft.length).put(number).put((byte) '\n').put(draft).array();
    }

    /** Message {@code id} from its body. */
    static Scheduled parse(byte[] body, String id) {
        int newline = newline(body);
        long number = Long.parseLong(new String(body, 0, newline, StandardCharsets.US_ASCII));
        try {
            return Scheduled.parseFrom(ByteBuffer.wrap(body, newline + 1, body.length - newline - 1))
                    .toBuilder().setId(id).setNumber(number).build();
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("unreadable scheduled message " + id + ": " + e.getMessage(), e);
        }
    }

    private static int newline(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        throw new IllegalStateException("unreadable scheduled message: no newline");
    }
}
