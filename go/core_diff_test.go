package ketama

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// randomKeys are keys of any byte but newline (the CLI reads one key per line), invalid
// UTF-8 included, and a few long ones.
func randomKeys(n int) [][]byte {
	rng := rand.New(rand.NewSource(22))
	out := make([][]byte, n)
	for i := range out {
		l := rng.Intn(40) + 1
		if i%50 == 0 {
			l = 250 + rng.Intn(600)
		}
		k := make([]byte, l)
		for j := range k {
			if rng.Intn(3) == 0 {
				k[j] = byte(rng.Intn(256))
			} else {
				k[j] = byte('a' + rng.Intn(26))
			}
			if k[j] == '\n' || k[j] == '\r' {
				k[j] = 'n'
			}
		}
		out[i] = k
	}
	return out
}

func runKetama(t *testing.T, stdin []byte, args ...string) []string {
	cmd := exec.Command(ketamaBin(t), args...)
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ketama %v: %v", args, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// Every hash agrees with the Rust core's on keys of any bytes (`ketama hash`).
func TestHashesEqualTheCores(t *testing.T) {
	keys := randomKeys(300)
	stdin := bytes.Join(keys, []byte("\n"))
	stdin = append(stdin, '\n')
	for _, name := range Hashes() {
		got := runKetama(t, stdin, "hash", "-H", name)
		if len(got) != len(keys) {
			t.Fatalf("%s: %d answers for %d keys", name, len(got), len(keys))
		}
		for i, k := range keys {
			h, _ := HashKey(name, k)
			if fmt.Sprint(h) != got[i] {
				t.Errorf("%s(%q...) = %d, core %s", name, short(k), h, got[i])
				break
			}
		}
	}
}

// Every profile places keys as the Rust core does (`ketama lookup`), the profiles without a
// recorded client (go-ketama, jump, rendezvous, maglev) included, on a weighted fleet.
func TestPlacementEqualsTheCores(t *testing.T) {
	ketamaBin(t)
	var keys [][]byte
	for _, k := range randomKeys(400) {
		if !bytes.ContainsAny(k, " \t") {
			keys = append(keys, k)
		}
	}
	stdin := append(bytes.Join(keys, []byte("\n")), '\n')
	fleet, file := diffFleet(t)
	for _, p := range Profiles() {
		r, err := New(p, "", fleet)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		got := runKetama(t, stdin, "lookup", "-p", p, "-s", file)
		if len(got) != len(keys) {
			t.Fatalf("%s: %d answers for %d keys", p, len(got), len(keys))
		}
		if pts := r.Points(); pts != nil {
			core := runKetama(t, nil, "points", "-p", p, "-s", file)
			if len(core) != len(pts) {
				t.Errorf("%s: %d points, core %d", p, len(pts), len(core))
			}
			for i := 0; i < len(core) && i < len(pts); i++ {
				if mine := fmt.Sprintf("%d\t%s", pts[i].Position, pts[i].Label); mine != core[i] {
					t.Errorf("%s: point %d: %q, core %q", p, i, mine, core[i])
					break
				}
			}
		}
		for i, k := range keys {
			mine, err := r.GetBytes(k)
			if err != nil {
				mine = "-"
			}
			if mine != got[i] {
				t.Errorf("%s: key %q...: %s, core %s", p, short(k), mine, got[i])
				break
			}
		}
	}
}

func short(k []byte) []byte {
	if len(k) > 24 {
		return k[:24]
	}
	return k
}

// diffFleet is a weighted fleet of the core-diff tests written as a servers file: the ring's
// servers and the file's path.
func diffFleet(t *testing.T) ([]Server, string) {
	fleet := []Server{
		{Label: "10.0.0.1:11211", Weight: 3}, {Label: "10.0.0.2:11212", Weight: 1},
		{Label: "[::1]:11213", Weight: 2}, {Label: "10.0.0.4", Weight: 5},
		{Label: "10.0.0.5:11215", Weight: 1}, {Label: "10.0.0.6:11216", Weight: 4},
	}
	var lines []string
	for _, s := range fleet {
		lines = append(lines, fmt.Sprintf("%s %d", s.Label, s.Weight))
	}
	file := filepath.Join(t.TempDir(), "servers")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return fleet, file
}

// Every profile sends each key where the Rust core does while servers are down (`ketama
// lookup --dead`: the client's own failover, '-' where it gives up).
func TestDeadServersEqualTheCores(t *testing.T) {
	ketamaBin(t)
	var keys [][]byte
	for _, k := range randomKeys(300) {
		if !bytes.ContainsAny(k, " \t") {
			keys = append(keys, k)
		}
	}
	stdin := append(bytes.Join(keys, []byte("\n")), '\n')
	fleet, file := diffFleet(t)
	for _, dead := range [][]int{{1}, {0, 3}, {0, 1, 2, 3, 4}} {
		var labels []string
		for _, d := range dead {
			labels = append(labels, fleet[d].Label)
		}
		for _, p := range Profiles() {
			r, err := New(p, "", fleet)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			got := runKetama(t, stdin, "lookup", "-p", p, "-s", file, "--dead", strings.Join(labels, ","))
			if len(got) != len(keys) {
				t.Fatalf("%s: %d answers for %d keys", p, len(got), len(keys))
			}
			for i, k := range keys {
				mine := "-"
				if x, err := r.IndexAlive(string(k), dead); err == nil {
					mine = fleet[x].Label
				}
				if mine != got[i] {
					t.Errorf("%s, %v down: key %q...: %s, core %s", p, labels, short(k), mine, got[i])
					break
				}
			}
		}
	}
}

// Keys with hash tags (braces, NUL bytes, carriage returns, Unicode line separators) go where
// the core sends them on every profile, and through the hash_tag option (other delimiters
// too) on every profile that has it.
func TestTaggedKeysEqualTheCores(t *testing.T) {
	ketamaBin(t)
	forms := []string{"{%d}", "user:{%d}:x", "{}{%d}", "a{}b%d", "{a}{%d}", "pre{%d}mid{o}post", "}%d{", "{a{%d}",
		"{{%d}}", "{%d}}", "a\x00{%d}", "{a\x00}%d", "{a\rb}{%d}", "{a\u2028b}{%d}", "\u00e9{%d}", "[%d]x", "x:%d:y", "::%d"}
	var keys [][]byte
	for i := 0; i < 40; i++ {
		for _, f := range forms {
			keys = append(keys, []byte(fmt.Sprintf(f, i)))
		}
	}
	stdin := append(bytes.Join(keys, []byte("\n")), '\n')
	fleet, file := diffFleet(t)
	check := func(p, tag string) {
		r, err := New(p, "", fleet)
		if err == nil && tag != "" {
			r, err = r.WithOptions(Options{HashTag: tag})
		}
		if err != nil {
			t.Fatalf("%s %q: %v", p, tag, err)
		}
		args := []string{"lookup", "-p", p, "-s", file}
		if tag != "" {
			args = append(args, "--hash-tag", tag)
		}
		got := runKetama(t, stdin, args...)
		if len(got) != len(keys) {
			t.Fatalf("%s %q: %d answers for %d keys", p, tag, len(got), len(keys))
		}
		for i, k := range keys {
			mine, err := r.GetBytes(k)
			if err != nil {
				mine = "-"
			}
			if mine != got[i] {
				t.Errorf("%s %q: key %q: %s, core %s", p, tag, k, mine, got[i])
				return
			}
		}
	}
	for _, p := range Profiles() {
		check(p, "")
		if prof, _ := profileByName(p); prof.optHashTag {
			for _, tag := range []string{"{}", "[]", "::"} {
				check(p, tag)
			}
		}
	}
}
