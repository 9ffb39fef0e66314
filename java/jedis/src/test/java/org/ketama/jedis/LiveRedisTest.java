package org.ketama.jedis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.ketama.Ring;
import org.ketama.Server;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * The router on live redis-server processes on 127.0.0.1 (free ports picked at run time,
 * each stopped by its own handle, and killed with the JVM through setpriv's parent-death
 * signal): what it writes is on the server the ring names, and a stopped server fails its
 * keys only. Without redis-server the test is skipped, unless KETAMA_REQUIRE_REDIS=1.
 */
class LiveRedisTest {
    private final List<Process> procs = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (Process p : procs) {
            p.destroyForcibly().waitFor();
        }
    }

    private String start(Path dir) throws IOException, InterruptedException {
        String bin = System.getenv().getOrDefault("REDIS_SERVER", "/usr/bin/redis-server");
        if (!new File(bin).canExecute()) {
            if ("1".equals(System.getenv("KETAMA_REQUIRE_REDIS"))) {
                fail("redis-server not found at " + bin + " (KETAMA_REQUIRE_REDIS=1)");
            }
            Assumptions.abort("redis-server not found at " + bin);
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        List<String> cmd = new ArrayList<>();
        if (new File("/usr/bin/setpriv").canExecute()) {
            cmd.addAll(List.of("/usr/bin/setpriv", "--pdeathsig", "KILL", "--"));
        }
        cmd.addAll(List.of(bin, "--bind", "127.0.0.1", "--port", Integer.toString(port), "--save", "",
            "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning", "--dir", dir.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectOutput(dir.resolve("redis-" + port + ".log").toFile()).start();
        procs.add(p);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return "127.0.0.1:" + port;
            } catch (IOException e) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    fail("redis-server on port " + port + " did not start");
                }
                Thread.sleep(20);
            }
        }
    }

    @Test
    void keysAreWhereTheRingSays() throws Exception {
        Path dir = Files.createTempDirectory("ketama-jedis");
        List<Server> servers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            servers.add(new Server(start(dir), i + 1));
        }
        Ring ring = Ring.create("libketama", null, servers);
        try (ProfileJedisRouter r = new ProfileJedisRouter(ring, ProfileJedisRouter::defaultPool)) {
            Map<String, Long> count = new HashMap<>();
            for (int i = 0; i < 1500; i++) {
                String key = "user:" + i;
                assertEquals("OK", r.withJedis(key, j -> j.set(key, "v" + key)));
                count.merge(ring.get(key), 1L, Long::sum);
            }
            for (Server s : servers) {
                String[] hp = ProfileJedisRouter.hostPort(s.label());
                try (Jedis one = new Jedis(hp[0], Integer.parseInt(hp[1]))) {
                    assertTrue(count.getOrDefault(s.label(), 0L) > 0);
                    // keys(), not dbSize(): its signature is the same in Jedis 3 and 4
                    assertEquals(count.get(s.label()).intValue(), one.keys("*").size(), s.label());
                    for (int i = 0; i < 1500; i += 3) {
                        String key = "user:" + i;
                        if (ring.get(key).equals(s.label())) {
                            assertEquals("v" + key, one.get(key), key);
                        }
                    }
                }
            }
            // server 0 stops: its keys fail with Jedis's connection error, the others still answer
            procs.get(0).destroyForcibly().waitFor();
            int failed = 0;
            for (int i = 0; i < 200; i++) {
                String key = "user:" + i;
                if (ring.index(key) == 0) {
                    assertThrows(JedisConnectionException.class, () -> r.withJedis(key, j -> j.get(key)), key);
                    failed++;
                } else {
                    assertEquals("v" + key, r.withJedis(key, j -> j.get(key)), key);
                }
            }
            assertTrue(failed > 0);
        }
    }
}
