package org.ketama;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Finds the repository root (the directory holding tests/vectors) from the working directory. */
final class Repo {
    private Repo() {}

    static Path root() {
        Path p = Paths.get("").toAbsolutePath();
        for (Path q = p; q != null; q = q.getParent()) {
            if (Files.isDirectory(q.resolve("tests/vectors")) && Files.isDirectory(q.resolve("java"))) {
                return q;
            }
        }
        throw new IllegalStateException("no repository root above " + p);
    }
}
