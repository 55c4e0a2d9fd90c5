package dev.cim.common.net;

import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Whether a host, as written in a setting, is this machine's loopback: the one place where cim
 * speaks plaintext without being told to. Server and client decide with the same rule.
 *
 * <p>The rule reads the text only, never asks DNS: {@code localhost}, or an address literal in
 * 127.0.0.0/8 or {@code ::1} (also bracketed, or IPv4-mapped). Any other name counts as not
 * loopback, even one that happens to resolve to 127.0.1.1: what a name resolves to may change, and
 * a client must not block its I/O thread on a lookup to decide whether a password may be sent.
 */
public final class Loopback {

    private Loopback() {
    }

    /** True if {@code host} is {@code localhost} or a loopback address literal. */
    public static boolean isLoopback(String host) {
        if (host == null) {
            return false;
        }
        String h = host.strip();
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.toLowerCase(Locale.ROOT).equals("localhost")) {
            return true;
        }
        byte[] literal = NetUtil.createByteArrayFromIpAddressString(h);
        if (literal == null) {
            return false; // a name: see the class comment
        }
        try {
            return InetAddress.getByAddress(literal).isLoopbackAddress();
        } catch (UnknownHostException impossible) {
            return false; // only for a wrong length, which the parser never returns
        }
    }
}
