package org.ketama.conformance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Assumptions;

/** The repository root and the ketama CLI (KETAMA_BIN, else target/debug/ketama). */
final class Cli {
    private Cli() {}

    static Path root() {
        for (Path q = Paths.get("").toAbsolutePath(); q != null; q = q.getParent()) {
            if (Files.isDirectory(q.resolve("tests/vectors")) && Files.isDirectory(q.resolve("java"))) {
                return q;
            }
        }
        throw new IllegalStateException("no repository root");
    }

    /**
     * The CLI; when it is missing the calling test is skipped, unless KETAMA_REQUIRE_CLI is
     * set (then it fails).
     */
    static Path bin() {
        String env = System.getenv("KETAMA_BIN");
        Path bin = env != null && !env.isEmpty() ? Paths.get(env) : root().resolve("target/debug/ketama");
        String req = System.getenv("KETAMA_REQUIRE_CLI");
        if (!Files.isExecutable(bin)) {
            if (req != null && !req.isEmpty()) {
                throw new AssertionError("KETAMA_REQUIRE_CLI is set but the ketama CLI is missing: " + bin);
            }
            System.out.println("SKIPPED: no ketama CLI at " + bin + " (set KETAMA_BIN, or build it: cargo build -p ketama-cli)");
            Assumptions.assumeTrue(false, "no ketama CLI at " + bin);
        }
        return bin;
    }
}
