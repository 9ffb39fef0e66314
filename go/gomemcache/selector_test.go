package ketama

import (
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/bradfitz/gomemcache/memcache"
	core "github.com/ketama/ketama/go"
)

func fleet() []Server {
	return []Server{
		{Label: "127.0.0.1:11211", Weight: 1},
		{Label: "127.0.0.2:11212", Weight: 2},
		{Label: "[::1]:11213", Weight: 1},
		{Label: "127.0.0.3", Weight: 1},
	}
}

func TestPicksWhatTheRingSays(t *testing.T) {
	for _, profile := range []string{"php-memcached", "spymemcached", "twemproxy", "gomemcache"} {
		sel, err := NewServerSelector(profile, "", fleet())
		if err != nil {
			t.Fatal(err)
		}
		r, _ := core.New(profile, "", fleet())
		want := map[string]string{
			"127.0.0.1:11211": "127.0.0.1:11211", "127.0.0.2:11212": "127.0.0.2:11212",
			"[::1]:11213": "[::1]:11213", "127.0.0.3": "127.0.0.3:11211",
		}
		for i := 0; i < 500; i++ {
			k := fmt.Sprintf("key:%d", i)
			a, err := sel.PickServer(k)
			if err != nil {
				t.Fatal(err)
			}
			label, _ := r.Get(k)
			if a.String() != want[label] || a.Network() != "tcp" {
				t.Fatalf("%s %s: picked %s, ring says %s", profile, k, a, label)
			}
		}
	}
}

func TestGomemcacheProfileEqualsServerList(t *testing.T) {
	var ss memcache.ServerList
	labels := []string{"127.0.0.1:11211", "127.0.0.2:11212", "127.0.0.3:11213"}
	if err := ss.SetServers(labels...); err != nil {
		t.Fatal(err)
	}
	var servers []Server
	for _, l := range labels {
		servers = append(servers, Server{Label: l, Weight: 1})
	}
	sel, _ := NewServerSelector("gomemcache", "", servers)
	for i := 0; i < 1000; i++ {
		k := fmt.Sprintf("k%d", i)
		a, _ := ss.PickServer(k)
		b, _ := sel.PickServer(k)
		if a.String() != b.String() {
			t.Fatalf("%s: ServerList %s, selector %s", k, a, b)
		}
	}
}

func TestErrorsAndEach(t *testing.T) {
	sel, err := NewServerSelector("php-memcached", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sel.PickServer("k"); !errors.Is(err, memcache.ErrNoServers) {
		t.Errorf("empty fleet: %v", err)
	}
	if _, err := NewServerSelector("nope", "", fleet()); !errors.Is(err, core.ErrUnknownProfile) {
		t.Errorf("unknown profile: %v", err)
	}
	sel, _ = NewServerSelector("php-memcached", "", fleet())
	if _, err := sel.PickServer(""); !errors.Is(err, core.ErrKeyRejected) {
		t.Errorf("empty key: %v", err)
	}
	var n int
	_ = sel.Each(func(net.Addr) error { n++; return nil })
	if n != 4 {
		t.Errorf("Each saw %d servers", n)
	}
	// A failed update leaves the fleet as it was.
	if err := sel.SetServers([]Server{{Label: "bad label", Weight: 1}}); !errors.Is(err, core.ErrBadLabel) {
		t.Errorf("bad label: %v", err)
	}
	if _, err := sel.PickServer("k"); err != nil {
		t.Errorf("after a failed update: %v", err)
	}
	_ = memcache.NewFromSelector(sel)
}
