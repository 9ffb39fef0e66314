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
