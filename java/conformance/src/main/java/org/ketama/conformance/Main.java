package org.ketama.conformance;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.ketama.Hashes;
import org.ketama.KetamaException;
import org.ketama.Options;
import org.ketama.Ring;
import org.ketama.Server;

/**
 * The Java port's driver for {@code ketama conformance}: reads cases in the kit's line
 * protocol on standard input and answers each on standard output (docs/conformance.md).
 *
 * <pre>
 * ketama conformance --all -- java -cp ketama.jar:ketama-conformance.jar org.ketama.conformance.Main
 * </pre>
 *
 * Exit status 0 at the end of the input, 2 on a line that is not part of the protocol.
 */
public final class Main {
    private Main() {}

    /** One case as read. */
    static final class Case {
        String kind;
        String profile;
        String hash;
        int n = 1;
        byte[] hashTag;
        byte[] prefixKey;
        boolean hashWithPrefix;
        final List<Server> servers = new ArrayList<>();
        final List<byte[]> keys = new ArrayList<>();
    }

    /** Runs the driver on standard input and output. */
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        try {
            run(in, out);
        } catch (ProtocolException e) {
            out.flush();
            System.err.println("ketama conformance driver: " + e.getMessage());
            System.exit(2);
        }
        out.flush();
    }

    /** A line outside the protocol. */
    static final class ProtocolException extends Exception {
        private static final long serialVersionUID = 1L;

        ProtocolException(String m) {
            super(m);
        }
    }

    /** Answers every case of {@code in} on {@code out}, flushing after each. */
    static void run(BufferedReader in, Writer out) throws IOException, ProtocolException {
        Case c = null;
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(" ", -1);
            switch (f[0]) {
                case "case":
                    c = new Case();
                    break;
                case "end":
                    if (c == null) {
                        throw new ProtocolException("end without case");
                    }
                    answer(c, out);
                    out.flush();
                    c = null;
                    break;
                default:
                    if (c == null) {
                        throw new ProtocolException("line outside a case: " + line);
                    }
                    field(c, f, line);
                    break;
            }
        }
        if (c != null) {
            throw new ProtocolException("input ended inside a case");
        }
    }

    private static String dash(String v) {
        return "-".equals(v) ? null : v;
    }

    private static void field(Case c, String[] f, String line) throws ProtocolException {
        try {
            switch (f[0]) {
                case "kind":
                    c.kind = f[1];
                    break;
                case "profile":
                    c.profile = dash(f[1]);
                    break;
                case "hash":
                    c.hash = dash(f[1]);
                    break;
                case "n":
                    c.n = Integer.parseInt(f[1]);
                    break;
                case "option":
                    if (f.length != 3) {
                        throw new ProtocolException("an option line has 2 fields: " + line);
                    }
                    switch (f[1]) {
                        case "hash_tag":
                            c.hashTag = hex(f[2]);
                            break;
                        case "prefix_key":
                            c.prefixKey = hex(f[2]);
                            break;
                        case "hash_with_prefix":
                            if (!f[2].equals("0") && !f[2].equals("1")) {
                                throw new ProtocolException("hash_with_prefix is 0 or 1: " + line);
                            }
                            c.hashWithPrefix = f[2].equals("1");
                            break;
                        default:
                            throw new ProtocolException("unknown option: " + line);
                    }
                    break;
                case "server": {
                    String name = dash(f[3]);
                    c.servers.add(new Server(f[1], Long.parseLong(f[2]),
                        name == null ? null : new String(hex(name), StandardCharsets.UTF_8)));
                    break;
                }
                case "key":
                    c.keys.add(hex(f[1]));
                    break;
                default:
                    throw new ProtocolException("unknown line: " + line);
            }
        } catch (ArrayIndexOutOfBoundsException | IllegalArgumentException e) {
            throw new ProtocolException("bad line: " + line);
        }
    }

    static byte[] hex(String s) {
        if (s.length() % 2 != 0) {
            throw new IllegalArgumentException("odd hex length");
        }
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            int hi = Character.digit(s.charAt(2 * i), 16), lo = Character.digit(s.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0 || s.charAt(2 * i) > 'f' || s.charAt(2 * i + 1) > 'f') {
                throw new IllegalArgumentException("bad hex");
            }
            b[i] = (byte) (hi << 4 | lo);
        }
        return b;
    }

    /** The case's placement options (a refused value: BadOptionException). */
    static Options options(Case c) {
        return Options.none().withHashTag(c.hashTag).withPrefixKey(c.prefixKey).withHashWithPrefix(c.hashWithPrefix);
    }

    static void answer(Case c, Writer out) throws IOException {
        List<String> lines = new ArrayList<>();
        try {
            if ("hash".equals(c.kind)) {
                Ring ring = c.profile == null ? null : Ring.create(c.profile, c.hash, List.of(), options(c));
                if (ring == null && c.hash == null) {
                    throw new IllegalArgumentException("a hash case needs a hash or a profile");
                }
                if (ring == null) {
                    Hashes.canonicalName(c.hash);
                }
                for (byte[] k : c.keys) {
                    try {
                        lines.add(Long.toString(ring == null ? Hashes.hash(c.hash, k) : ring.keyHash(k)));
                    } catch (KetamaException e) {
                        lines.add("null");
                    }
                }
            } else {
                Ring ring = Ring.create(c.profile, c.hash, c.servers, options(c));
                boolean failover = "failover".equals(c.kind);
                for (byte[] k : c.keys) {
                    try {
                        lines.add(failover ? String.join(" ", ring.failover(k, c.n)) : ring.get(k));
                    } catch (KetamaException e) {
                        lines.add("null");
                    }
                }
            }
        } catch (KetamaException e) {
            lines.clear();
            lines.add("error " + e.errorName() + " " + oneLine(e.getMessage()));
        } catch (RuntimeException e) {
            lines.clear();
            lines.add("error " + e.getClass().getSimpleName() + " " + oneLine(String.valueOf(e.getMessage())));
        }
        for (String l : lines) {
            out.write(l);
            out.write('\n');
        }
        out.write("end\n");
    }

    private static String oneLine(String m) {
        return m.replace('\n', ' ').replace('\r', ' ');
    }
}
