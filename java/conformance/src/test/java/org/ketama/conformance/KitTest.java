package org.ketama.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The Java port through the conformance kit: {@code ketama conformance --all -- java -cp ...
 * org.ketama.conformance.Main} over every vector file must exit 0. The kit is found through
 * KETAMA_BIN or ../target/debug/ketama; when it is missing the test is skipped, unless
 * KETAMA_REQUIRE_CLI is set (then it fails).
 */
class KitTest {
    static Path root() {
        for (Path q = Paths.get("").toAbsolutePath(); q != null; q = q.getParent()) {
            if (Files.isDirectory(q.resolve("tests/vectors")) && Files.isDirectory(q.resolve("java"))) {
                return q;
            }
        }
        throw new IllegalStateException("no repository root");
    }

    @Test
    void everyVectorFileAgreesThroughTheKit() throws Exception {
        Path root = root();
        String env = System.getenv("KETAMA_BIN");
        Path bin = env != null && !env.isEmpty() ? Paths.get(env) : root.resolve("target/debug/ketama");
        boolean required = System.getenv("KETAMA_REQUIRE_CLI") != null && !System.getenv("KETAMA_REQUIRE_CLI").isEmpty();
        if (!Files.isExecutable(bin)) {
            if (required) {
                throw new AssertionError("KETAMA_REQUIRE_CLI is set but the ketama CLI is missing: " + bin);
            }
            System.out.println("SKIPPED: no ketama CLI at " + bin + " (set KETAMA_BIN, or build it: cargo build -p ketama-cli)");
            Assumptions.assumeTrue(false, "no ketama CLI at " + bin);
        }
        // Surefire's own class path holds this module's classes and the core artifact.
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(bin.toString(), "conformance", "--all", "--vectors", root.resolve("tests/vectors").toString(),
            "--", java, "-cp", cp, Main.class.getName()));
        Path report = Files.createTempFile("ketama-conformance", ".txt");
        try {
            Process p = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true)
                .redirectOutput(report.toFile()).start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("the kit did not finish in 10 minutes");
            }
            String out = new String(Files.readAllBytes(report), StandardCharsets.UTF_8);
            String[] lines = out.split("\n");
            System.out.println("ketama conformance --all (Java port): " + lines[lines.length - 1]);
            assertEquals(0, p.exitValue(), out);
        } finally {
            new File(report.toString()).delete();
        }
    }
}
