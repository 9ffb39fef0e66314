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

    Entry(Profile p, Server s, Address a) {
        server = s;
        address = a;
        weight = s.weight();
        node = p.names && s.name() != null ? s.name() : a.nodeString(p.node);
        nodeBytes = node.getBytes(StandardCharsets.UTF_8);
        int[] w = new int[4];
        Md5.words(nodeBytes, 0, nodeBytes.length, w);
        seed = ((long) w[0] << 32) | (w[1] & 0xFFFFFFFFL);
    }
}
