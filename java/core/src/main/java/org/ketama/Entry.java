package org.ketama;

import java.nio.charset.StandardCharsets;

/**
 * A server with what a ring derived from it: address, node string, rank and its 64-bit node hash
 * ({@code seed}: rendezvous scores and maglev permutations).
 */
final class Entry {
    final Server server;
    final Address address;
    final long weight;
    /** The node string the client hashes. */
    final String node;
    final byte[] nodeBytes;
    /** 64 bits of MD5 of the node string (rendezvous scores, Maglev permutations). */
    final long seed;
    /** Place in the client's server order (decides ties and modulo slots). */
    int rank;

    /** The entry of server {@code s} (address {@code a}) at {@code place} (from 0) in its list. */
    Entry(Profile p, Server s, Address a, int place) {
        server = s;
        address = a;
        weight = s.weight();
        node = nodeString(p, s, a, place);
        nodeBytes = encode(p, node);
        int[] w = new int[4];
        Md5.words(nodeBytes, 0, nodeBytes.length, w);
        seed = ((long) w[0] << 32) | (w[1] & 0xFFFFFFFFL);
    }

    /**
     * The node string the client hashes for {@code s}: Jedis's {@code SHARD-<place>} and
     * {@code name*weight} (the name replacing only the label in it), else the name where the
     * profile hashes names, else the address's form.
     */
    static String nodeString(Profile p, Server s, Address a, int place) {
        String name = p.names ? s.name() : null;
        switch (p.node) {
            case SHARD_PLACE:
                return "SHARD-" + place;
            case NAME_STAR_WEIGHT:
                return (name != null ? name : s.label()) + "*" + s.weight();
            default:
                return name != null ? name : a.nodeString(p.node);
        }
    }

    /**
     * The bytes the client hashes for a node string: its UTF-8, or its latin-1 where the
     * client encodes text so ({@link UnsupportedException} for a character above U+00FF).
     */
    static byte[] encode(Profile p, String node) {
        if (p.rewrite != Profile.Rewrite.LATIN1) {
            return node.getBytes(StandardCharsets.UTF_8);
        }
        byte[] out = new byte[node.length()];
        for (int i = 0; i < out.length; i++) {
            char c = node.charAt(i);
            if (c > 0xFF) {
                throw new UnsupportedException("node string " + node + ": a character above U+00FF");
            }
            out[i] = (byte) c;
        }
        return out;
    }
}
