package ketama

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tieFleets are fleets whose point strings collide on the walking profiles whose client keeps
// its points in a map (a later server's point replaces an earlier one's): flexihash appends
// the index to the label ("a:1"+"10" = "a:11"+"0"), groupcache and go-redis v7 put it first
// ("1"+"1a:1" = "11"+"a:1").
var tieFleets = []struct {
	profile string
	labels  []string
}{
	{"flexihash", []string{"a:1", "a:11", "b:2", "c:3"}},
	{"groupcache", []string{"1a:1", "a:1", "b:2", "c:3"}},
	{"go-redis-v7", []string{"1a:1", "a:1", "b:2", "c:3"}},
}

// A failover walk over a tied position does not meet the tie's loser there (the client's map
// never held that point): each key goes where the Rust core sends it (`ketama lookup --dead`)
// with the tie winner down, and the fleet really has ties.
func TestWalksSkipTheLosersOfTies(t *testing.T) {
	ketamaBin(t)
	keys := make([]string, 3000)
	for i := range keys {
		keys[i] = fmt.Sprintf("key:%d", i)
	}
	stdin := []byte(strings.Join(keys, "\n") + "\n")
	for _, f := range tieFleets {
		var fleet []Server
		for _, l := range f.labels {
			fleet = append(fleet, Server{Label: l, Weight: 1})
		}
		file := filepath.Join(t.TempDir(), "servers")
		if err := os.WriteFile(file, []byte(strings.Join(f.labels, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := New(f.profile, "", fleet)
		if err != nil {
			t.Fatalf("%s: %v", f.profile, err)
		}
		ties := 0
		pts := r.Points()
		for i := 1; i < len(pts); i++ {
			if pts[i].Position == pts[i-1].Position {
				ties++
			}
		}
		if ties == 0 {
			t.Fatalf("%s: the fleet %v has no tied points", f.profile, f.labels)
		}
		// The winner of every tie here is the later of the two colliding servers.
		winner := 1
		got := runKetama(t, stdin, "lookup", "-p", f.profile, "-s", file, "--dead", f.labels[winner])
		if len(got) != len(keys) {
			t.Fatalf("%s: %d answers for %d keys", f.profile, len(got), len(keys))
		}
		for i, k := range keys {
			mine := "-"
			if x, err := r.IndexAlive(k, []int{winner}); err == nil {
				mine = fleet[x].Label
			}
			if mine != got[i] {
				t.Errorf("%s, %s down: key %q: %s, core %s", f.profile, f.labels[winner], k, mine, got[i])
				break
			}
		}
	}
}
