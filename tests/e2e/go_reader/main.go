// Command go_reader reads keys back through gomemcache with ketama's selector:
//
//	go_reader PROFILE SERVERS_FILE KEYS_FILE [DEAD_LABEL]
//
// Without DEAD_LABEL each key is read with memcache.NewFromSelector(NewServerSelector(...));
// with it, from the first server of the ring's Failover(key, 7) that is not DEAD_LABEL. A hit
// is the value "w:" + key. Prints "hits=N total=M", then each missed key on its own line.
// Loopback servers only; every request has a 5 s timeout.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/bradfitz/gomemcache/memcache"
	ketama "github.com/ketama/ketama/go"
	ketamamc "github.com/ketama/ketama/go/gomemcache"
)

func die(msg string, err error) {
	fmt.Fprintf(os.Stderr, "go_reader: %s: %v\n", msg, err)
	os.Exit(2)
}

func lines(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		die(path, err)
	}
	defer f.Close()
	var out []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		if l := strings.TrimRight(s.Text(), "\r"); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// failoverSelector picks, for each key, the first server of the client's failover sequence
// that is not the stopped one.
type failoverSelector struct {
	ring  *ketama.Ring
	dead  string
	addrs map[string]net.Addr
}

func (s *failoverSelector) PickServer(key string) (net.Addr, error) {
	seq, err := s.ring.Failover(key, 7)
	if err != nil {
		return nil, err
	}
	for _, l := range seq {
		if l != s.dead {
			return s.addrs[l], nil
		}
	}
	return nil, memcache.ErrNoServers
}

func (s *failoverSelector) Each(f func(net.Addr) error) error {
	for _, a := range s.addrs {
		if err := f(a); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	if len(os.Args) < 4 {
		die("usage", errors.New("go_reader PROFILE SERVERS_FILE KEYS_FILE [DEAD_LABEL]"))
	}
	profile, labels, keys := os.Args[1], lines(os.Args[2]), lines(os.Args[3])
	servers := make([]ketama.Server, len(labels))
	addrs := map[string]net.Addr{}
	for i, l := range labels {
		a, err := net.ResolveTCPAddr("tcp", l)
		if err != nil || !a.IP.IsLoopback() {
			die("loopback servers only", fmt.Errorf("%q", l))
		}
		servers[i] = ketama.Server{Label: l, Weight: 1}
		addrs[l] = a
	}
	var sel memcache.ServerSelector
	if len(os.Args) > 4 {
		ring, err := ketama.New(profile, "", servers)
		if err != nil {
			die("ring", err)
		}
		sel = &failoverSelector{ring: ring, dead: os.Args[4], addrs: addrs}
	} else {
		s, err := ketamamc.NewServerSelector(profile, "", servers)
		if err != nil {
			die("selector", err)
		}
		sel = s
	}
	mc := memcache.NewFromSelector(sel)
	mc.Timeout = 5 * time.Second
	var missed []string
	for _, k := range keys {
		it, err := mc.Get(k)
		if err != nil || string(it.Value) != "w:"+k {
			missed = append(missed, k)
		}
	}
	fmt.Printf("hits=%d total=%d\n", len(keys)-len(missed), len(keys))
	for _, k := range missed {
		fmt.Println(k)
	}
}
