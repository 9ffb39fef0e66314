// Shared line protocol of the Java client oracles (see tests/oracles/lib/families.py
// run_line_driver): reads jobs from stdin, calls Job.run for each, prints answers.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public final class LineIO {
    /** One job's inputs: parameters, server fields (decoded), keys. */
    public interface Job {
        /** Returns one answer per key (null = refused / threw). */
        List<String> run(String[] params, List<String[]> servers, List<String> keys) throws Exception;
    }

    static String unhex(String h) {
        byte[] out = new byte[h.length() / 2];
        for (int i = 0; i < out.length; i++) out[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        return new String(out, StandardCharsets.UTF_8);
    }

    public static void serve(Job job) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8");
        String line;
        String[] params = new String[0];
        List<String[]> servers = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) continue;
            String[] f = line.split(" ", -1);
            switch (f[0]) {
                case "T":
                    params = java.util.Arrays.copyOfRange(f, 1, f.length);
                    servers.clear(); keys.clear();
                    break;
                case "S": {
                    String[] s = new String[f.length - 1];
                    for (int i = 1; i < f.length; i++) s[i - 1] = unhex(f[i]);
                    servers.add(s);
                    break;
                }
                case "K": keys.add(unhex(f.length > 1 ? f[1] : "")); break;
                case "E": {
                    List<String> r = job.run(params, servers, keys);
                    if (r.size() != keys.size()) throw new AssertionError("answers " + r.size());
                    out.println("R");
                    for (String a : r) {
                        if (a != null && (a.equals("x") || a.contains("\n"))) throw new AssertionError(a);
                        out.println(a == null ? "x" : a);
                    }
                    out.println("D");
                    break;
                }
                default: throw new IllegalArgumentException(line);
            }
        }
        out.flush();
    }

    private LineIO() {}
}
