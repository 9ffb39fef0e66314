// Reads keys back through Jedis with our org.ketama.jedis.ProfileJedisRouter: the Java reader
// of the Redis-client fleet.
//   java -cp JEDIS_CLASSPATH:CLASSES JedisReader PROFILE SERVERS_FILE KEYS_FILE
// SERVERS_FILE: "host:port weight" lines, the ring's servers in order. Each key is read with
// GET on a connection from the pool of the server the ring names (the router's default pools,
// 2 s timeouts). A hit is the value "w:" + key. Prints "hits=N total=M", then each missed key
// on its own line (at most 20). Loopback servers only.
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import org.ketama.Server;
import org.ketama.jedis.ProfileJedisRouter;

public final class JedisReader {
    static List<String> lines(String path) throws Exception {
        List<String> out = new ArrayList<>();
        for (String l : Files.readAllLines(Paths.get(path), StandardCharsets.UTF_8)) {
            if (!l.isEmpty()) {
                out.add(l);
            }
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: JedisReader PROFILE SERVERS_FILE KEYS_FILE");
            System.exit(2);
        }
        List<Server> servers = new ArrayList<>();
        for (String l : lines(args[1])) {
            String[] f = l.trim().split("\\s+");
            if (f.length != 2 || !f[0].startsWith("127.")) {
                System.err.println("want a loopback \"host:port weight\" line, got " + l);
                System.exit(2);
            }
            servers.add(new Server(f[0], Long.parseLong(f[1])));
        }
        List<String> keys = lines(args[2]);
        List<String> missed = new ArrayList<>();
        try (ProfileJedisRouter redis = ProfileJedisRouter.create(args[0], null, servers)) {
            for (String key : keys) {
                String v = redis.withJedis(key, j -> j.get(key));
                if (!("w:" + key).equals(v)) {
                    missed.add(key);
                }
            }
        }
        System.out.println("hits=" + (keys.size() - missed.size()) + " total=" + keys.size());
        for (String k : missed.subList(0, Math.min(20, missed.size()))) {
            System.out.println(k);
        }
    }
}
