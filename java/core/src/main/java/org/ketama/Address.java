package org.ketama;

import java.util.Arrays;

/**
 * A parsed server label: host, port and what kind of host, with the node strings each client
 * builds from it. No DNS is ever done.
 */
final class Address {
    static final int DEFAULT_PORT = 11211;

    enum Kind { IPV4, IPV6, NAME }

    final String label;
    final String host;
    final int port;
    final boolean explicitPort;
    final Kind kind;
    /** The IPv4 (4) or IPv6 (16) address bytes, else null. */
    final byte[] ip;

    private Address(String label, String host, int port, boolean explicitPort, Kind kind, byte[] ip) {
        this.label = label;
        this.host = host;
        this.port = port;
        this.explicitPort = explicitPort;
        this.kind = kind;
        this.ip = ip;
    }

    /**
     * Parses {@code host:port}, {@code [ipv6]:port}, {@code host} or a bare IPv6 address.
     * Refused: an empty label, whitespace, control characters or U+FEFF anywhere; a port that
     * is not 1 to 65535 in plain decimal without a leading zero; brackets around anything but
     * an IPv6 literal.
     */
    static Address parse(String label) {
        if (label.isEmpty()) {
            throw bad(label);
        }
        for (int i = 0; i < label.length(); ) {
            int c = label.codePointAt(i);
            if (isWhiteSpace(c) || Character.isISOControl(c) || c == 0xFEFF) {
                throw bad(label);
            }
            i += Character.charCount(c);
        }
        String host;
        int port = -1;
        if (label.startsWith("[")) {
            int close = label.indexOf(']');
            if (close < 0) {
                throw bad(label);
            }
            host = label.substring(1, close);
            if (ipv6(host) == null) {
                throw bad(label);
            }
            String after = label.substring(close + 1);
            if (!after.isEmpty()) {
                if (!after.startsWith(":")) {
                    throw bad(label);
                }
                port = port(after.substring(1), label);
            }
        } else {
            int colons = 0;
            for (int i = 0; i < label.length(); i++) {
                if (label.charAt(i) == ':') {
                    colons++;
                }
            }
            if (colons == 0) {
                host = label;
            } else if (colons == 1) {
                int at = label.indexOf(':');
                host = label.substring(0, at);
                port = port(label.substring(at + 1), label);
            } else if (ipv6(label) != null) {
                host = label;
            } else {
                throw bad(label);
            }
        }
        if (host.isEmpty()) {
            throw bad(label);
        }
        byte[] ip = ipv4(host);
        Kind kind = Kind.IPV4;
        if (ip == null) {
            ip = ipv6(host);
            kind = ip == null ? Kind.NAME : Kind.IPV6;
        }
        return new Address(label, host, port < 0 ? DEFAULT_PORT : port, port >= 0, kind, ip);
    }

    private static KetamaException bad(String label) {
        return new BadLabelException(label);
    }

    /** Unicode White_Space (what Rust's {@code char::is_whitespace} tests). */
    static boolean isWhiteSpace(int c) {
        return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680
            || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F
            || c == 0x205F || c == 0x3000;
    }

    private static int port(String p, String label) {
        if (p.isEmpty() || p.length() > 5 || p.charAt(0) == '0') {
            throw bad(label);
        }
        int v = 0;
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c < '0' || c > '9') {
                throw bad(label);
            }
            v = v * 10 + (c - '0');
        }
        if (v > 65535) {
            throw bad(label);
        }
        return v;
    }

    /** Strict dotted-quad: four decimal octets, no leading zeros; else null. */
    static byte[] ipv4(String s) {
        byte[] out = new byte[4];
        int part = 0;
        int i = 0;
        int n = s.length();
        while (part < 4) {
            int start = i;
            int v = 0;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9' && i - start < 3) {
                v = v * 10 + (s.charAt(i) - '0');
                i++;
            }
            int digits = i - start;
            if (digits == 0 || (digits > 1 && s.charAt(start) == '0') || v > 255) {
                return null;
            }
            out[part++] = (byte) v;
            if (part < 4) {
                if (i >= n || s.charAt(i) != '.') {
                    return null;
                }
                i++;
            }
        }
        return i == n ? out : null;
    }

    /** RFC 4291 text (one {@code ::} at most, an optional dotted-quad tail); else null. */
    static byte[] ipv6(String s) {
        int[] head = new int[8];
        int[] tail = new int[8];
        int nh = 0, nt = 0;
        boolean compressed = false;
        int i = 0;
        int n = s.length();
        if (s.startsWith("::")) {
            compressed = true;
            i = 2;
            if (i == n) {
                return new byte[16];
            }
        } else if (s.startsWith(":")) {
            return null;
        }
        while (true) {
            int total = nh + nt;
            // A dotted-quad tail takes the place of two groups.
            int dot = s.indexOf('.', i);
            int nextColon = s.indexOf(':', i);
            if (dot >= 0 && (nextColon < 0)) {
                byte[] v4 = ipv4(s.substring(i));
                if (v4 == null || total + 2 > 8 || (!compressed && total + 2 != 8)) {
                    return null;
                }
                int g1 = (v4[0] & 0xff) << 8 | (v4[1] & 0xff);
                int g2 = (v4[2] & 0xff) << 8 | (v4[3] & 0xff);
                if (compressed) {
                    tail[nt++] = g1;
                    tail[nt++] = g2;
                } else {
                    head[nh++] = g1;
                    head[nh++] = g2;
                }
                i = n;
                break;
            }
            int start = i;
            int v = 0;
            while (i < n && i - start < 4 && hexDigit(s.charAt(i)) >= 0) {
                v = v * 16 + hexDigit(s.charAt(i));
                i++;
            }
            if (i == start || total >= 8) {
                return null;
            }
            if (compressed) {
                tail[nt++] = v;
            } else {
                head[nh++] = v;
            }
            if (i == n) {
                break;
            }
            if (s.charAt(i) != ':') {
                return null;
            }
            i++;
            if (i < n && s.charAt(i) == ':') {
                if (compressed) {
                    return null;
                }
                compressed = true;
                i++;
                if (i == n) {
                    break;
                }
            } else if (i == n) {
                return null;
            }
        }
        int total = nh + nt;
        if (compressed ? total > 7 : total != 8) {
            return null;
        }
        int[] groups = new int[8];
        System.arraycopy(head, 0, groups, 0, nh);
        System.arraycopy(tail, 0, groups, 8 - nt, nt);
        byte[] out = new byte[16];
        for (int g = 0; g < 8; g++) {
            out[2 * g] = (byte) (groups[g] >>> 8);
            out[2 * g + 1] = (byte) groups[g];
        }
        return out;
    }

    /** The value of an ASCII hex digit, else -1. */
    static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** Whether two addresses name one endpoint (IPv6 literals compared as addresses). */
    boolean sameEndpoint(Address o) {
        if (kind == Kind.IPV6 && o.kind == Kind.IPV6) {
            return Arrays.equals(ip, o.ip) && explicitPort == o.explicitPort && port == o.port;
        }
        return label.equals(o.label);
    }

    /** A key equal for two addresses exactly when {@link #sameEndpoint} holds. */
    String endpointKey() {
        if (kind == Kind.IPV6) {
            return "[" + javaIpv6() + "]" + (explicitPort ? ":" + port : "");
        }
        return label;
    }

    /** Java's {@code Inet6Address.getHostAddress()}: eight groups, lowercase hex, no compression. */
    String javaIpv6() {
        StringBuilder b = new StringBuilder(39);
        for (int g = 0; g < 8; g++) {
            if (g > 0) {
                b.append(':');
            }
            b.append(Integer.toHexString((ip[2 * g] & 0xff) << 8 | (ip[2 * g + 1] & 0xff)));
        }
        return b.toString();
    }

    /**
     * An IPv6 address in its compressed lowercase form (RFC 5952, as Rust's {@code Ipv6Addr}
     * and .NET print it): the longest run of two or more zero groups (the first of equal ones)
     * as {@code ::}; an IPv4-mapped address as {@code ::ffff:a.b.c.d}.
     */
    String compressedIpv6() {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = (ip[2 * i] & 0xff) << 8 | (ip[2 * i + 1] & 0xff);
        }
        if (g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0xffff) {
            return "::ffff:" + (ip[12] & 0xff) + "." + (ip[13] & 0xff) + "." + (ip[14] & 0xff) + "." + (ip[15] & 0xff);
        }
        int bestStart = 0, bestLen = 0, start = 0, len = 0;
        for (int i = 0; i < 8; i++) {
            if (g[i] == 0) {
                if (len == 0) {
                    start = i;
                }
                len++;
                if (len > bestLen) {
                    bestStart = start;
                    bestLen = len;
                }
            } else {
                len = 0;
            }
        }
        StringBuilder b = new StringBuilder(39);
        if (bestLen > 1) {
            groups(b, g, 0, bestStart);
            b.append("::");
            groups(b, g, bestStart + bestLen, 8);
        } else {
            groups(b, g, 0, 8);
        }
        return b.toString();
    }

    private static void groups(StringBuilder b, int[] g, int from, int to) {
        for (int i = from; i < to; i++) {
            if (i > from) {
                b.append(':');
            }
            b.append(Integer.toHexString(g[i]));
        }
    }

    private String ipText() {
        return kind == Kind.IPV4 ? host : javaIpv6();
    }

    /** The node string the client hashes, or throws {@link UnsupportedException}. */
    String nodeString(Profile.Node form) {
        switch (form) {
            case LABEL:
            case BARE:
                return label;
            case OMIT_DEFAULT_PORT:
                return port == DEFAULT_PORT ? host : host + ":" + port;
            case SLASH_LABEL:
                return "/" + host + ":" + port;
            case HOST_PORT:
                return host + ":" + port;
            case HOST_THEN_PORT:
                return host + port;
            case HOST_SLASH_HOST_PORT:
                return host + "/" + host + ":" + port;
            case REDIS_URL_DB:
                return "redis://" + host + ":" + port + "/0";
            case REDIS_URL:
                return kind == Kind.IPV6 ? "redis://[" + host + "]:" + port : "redis://" + host + ":" + port;
            case HOST_NUL_PORT:
                return host + "\0" + port;
            case IP_END_POINT:
                // .NET resolves a host name by DNS: only an explicit name places one
                switch (kind) {
                    case IPV4: return host + ":" + port;
                    case IPV6: return "[" + compressedIpv6() + "]:" + port;
                    default: throw new UnsupportedException(label);
                }
            case JAVA_EVCACHE: {
                // EVCache writes the port as 11211 whatever it is; a host name needs its address.
                if (kind == Kind.NAME) {
                    throw new UnsupportedException(label);
                }
                String ip = ipText();
                return ip + "/" + ip + ":" + DEFAULT_PORT;
            }
            case NGINX_HOST_NUL_PORT: {
                int cut = label.length();
                while (cut > 0 && label.charAt(cut - 1) >= '0' && label.charAt(cut - 1) <= '9') {
                    cut--;
                }
                if (cut > 0 && label.charAt(cut - 1) == ':') {
                    return label.substring(0, cut - 1) + "\0" + label.substring(cut);
                }
                return label + "\0";
            }
            case JAVA_SPY:
            case JAVA_XMC: {
                String slash = form == Profile.Node.JAVA_XMC ? "/" : "";
                switch (kind) {
                    case IPV4: return slash + host + ":" + port;
                    case IPV6: return slash + "[" + javaIpv6() + "]:" + port;
                    default: return host + "/<unresolved>:" + port;
                }
            }
            case JAVA_HOST_NAME_PORT:
                return (kind == Kind.NAME ? host : ipText()) + ":" + port;
            case JAVA_NGINX:
            case JAVA_HOST_NAME: {
                String ip;
                if (kind != Kind.NAME) {
                    ip = ipText();
                } else if (form == Profile.Node.JAVA_HOST_NAME) {
                    ip = host;
                } else {
                    throw new UnsupportedException(label);
                }
                return port == DEFAULT_PORT ? ip : ip + ":" + port;
            }
            default:
                throw new IllegalStateException(form.toString());
        }
    }
}
