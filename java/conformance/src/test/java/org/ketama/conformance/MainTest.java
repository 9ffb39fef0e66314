package org.ketama.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.BufferedReader;
import java.io.StringReader;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The line protocol, answered in process. */
class MainTest {
    static String run(String input) throws Exception {
        StringWriter out = new StringWriter();
        Main.run(new BufferedReader(new StringReader(input)), out);
        return out.toString();
    }

    @Test
    void answersEachKindOfCase() throws Exception {
        // "apple" = 6170706c65; md5 of it is 3195025439 (core's known answer).
        assertEquals("3195025439\nend\n", run("case x.json\nkind hash\nprofile -\nhash md5\nkey 6170706c65\nend\n"));
        assertEquals("null\nend\n", run("case x.json\nkind hash\nprofile libmemcached\nhash -\nkey \nend\n"));
        String two = "server 10.0.0.1:11211 1 -\nserver 10.0.0.2:11211 1 -\n";
        String located = run("case y.json\nkind locate\nprofile libketama\nhash -\n" + two + "key 6170706c65\nend\n");
        assertEquals(2, located.split("\n").length);
        String seq = run("case z.json\nkind failover\nprofile spymemcached\nhash KETAMA_HASH\nn 3\n" + two + "key 6170706c65\nend\n");
        assertEquals(3, seq.split("\n")[0].split(" ").length);
        assertEquals("error UnknownProfile unknown profile name: nope\nend\n",
            run("case e.json\nkind locate\nprofile nope\nhash -\nkey 61\nend\n"));
    }

    @Test
    void refusesLinesOutsideTheProtocol() {
        assertThrows(Main.ProtocolException.class, () -> run("key 61\n"));
        assertThrows(Main.ProtocolException.class, () -> run("case a\nbogus 1\nend\n"));
        assertThrows(Main.ProtocolException.class, () -> run("case a\nkey 6\nend\n"));
        assertThrows(Main.ProtocolException.class, () -> run("case a\nkind locate\n"));
    }
}
