package dev.cim.server.redis;

import java.nio.charset.StandardCharsets;

/** String and number arguments of Redis commands and scripts, as bytes. */
final class RedisBytes {

    private RedisBytes() {
    }

    static byte[] of(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] of(long number) {
        return Long.toString(number).getBytes(StandardCharsets.US_ASCII);
    }

    static String text(Object reply) {
        return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    static long number(Object reply) {
        return reply instanceof Long n ? n : Long.parseLong(text(reply));
    }
}
