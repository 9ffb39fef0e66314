// Command oracle drives the real groupcache consistenthash and gomemcache ServerList for one
// job read as JSON on stdin and prints {"expect": [...]} (labels; null where the client gives
// no server). Used by tests/oracles/go/go_oracle.py.
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"

	"github.com/bradfitz/gomemcache/memcache"
	"github.com/golang/groupcache/consistenthash"
)

type server struct {
	Label string `json:"label"`
	Node  string `json:"node"` // string given to the client
}

type job struct {
	Client   string   `json:"client"`
	Replicas int      `json:"replicas"`
	Servers  []server `json:"servers"`
	Keys     []string `json:"keys"`
}

func die(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func main() {
	var j job
	if err := json.NewDecoder(os.Stdin).Decode(&j); err != nil {
		die(err)
	}
	expect := make([]*string, len(j.Keys))
	switch j.Client {
	case "groupcache":
		m := consistenthash.New(j.Replicas, nil) // nil = crc32.ChecksumIEEE
		byNode := map[string]string{}
		nodes := make([]string, len(j.Servers))
		for i, s := range j.Servers {
			nodes[i] = s.Node
			byNode[s.Node] = s.Label
		}
		m.Add(nodes...)
		for i, k := range j.Keys {
			if got := m.Get(k); got != "" {
				l := byNode[got]
				expect[i] = &l
			}
		}
	case "gomemcache":
		var ss memcache.ServerList
		nodes := make([]string, len(j.Servers))
		for i, s := range j.Servers {
			nodes[i] = s.Node
		}
		if err := ss.SetServers(nodes...); err != nil {
			die(err)
		}
		// the resolved addresses, in order; PickServer returns one of these values
		var addrs []net.Addr
		ss.Each(func(a net.Addr) error { addrs = append(addrs, a); return nil })
		if len(addrs) != len(j.Servers) {
			die(fmt.Errorf("got %d addresses", len(addrs)))
		}
		for i, k := range j.Keys {
			a, err := ss.PickServer(k)
			if err != nil {
				continue
			}
			found := -1
			for x, b := range addrs {
				if a == b { // same interface value (same pointer)
					found = x
					break
				}
			}
			if found < 0 {
				die(fmt.Errorf("unknown address %v", a))
			}
			l := j.Servers[found].Label
			expect[i] = &l
		}
	default:
		die(fmt.Errorf("unknown client %q", j.Client))
	}
	if err := json.NewEncoder(os.Stdout).Encode(map[string]interface{}{"expect": expect}); err != nil {
		die(err)
	}
}
