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
import org.junit.jupiter.api.Test;

/**
 * The Java port through the conformance kit: {@code ketama conformance --all -- java -cp ...
 * org.ketama.conformance.Main} over every vector file must exit 0. The kit is found through
 * KETAMA_BIN or ../target/debug/ketama; when it is missing the test is skipped, unless
 * KETAMA_REQUIRE_CLI is set (then it fails).
 */
class KitTest {
    @Test
    void everyVectorFileAgreesThroughTheKit() throws Exception {
        kit("tests/vectors", "--all");
    }

    /** The files recorded with placement options, sent with `option` lines. */
    @Test
    void theOptionFilesAgreeThroughTheKit() throws Exception {
        kit("tests/vectors/options", "--all (option files)");
    }

    private static void kit(String vectors, String what) throws Exception {
        Path root = Cli.root();
        Path bin = Cli.bin();
        // Surefire's own class path holds this module's classes and the core artifact.
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(bin.toString(), "conformance", "--all", "--vectors", root.resolve(vectors).toString(),
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
            System.out.println("ketama conformance " + what + " (Java port): " + lines[lines.length - 1]);
            assertEquals(0, p.exitValue(), out);
        } finally {
            new File(report.toString()).delete();
        }
    }
}
