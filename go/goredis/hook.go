// Package ketama (import path github.com/ketama/ketama/go/goredis) plugs ketama's
// client-exact key placement into go-redis v9's Ring: Hook.NewConsistentHash is a
// RingOptions.NewConsistentHash that sends each key to the shard the chosen client (Predis,
// redis-rb, Jedis, libketama, twemproxy, ...) sends it to, so a Go service reads the keys that
// client wrote.
//
//	import (
//		"github.com/redis/go-redis/v9"
//		core "github.com/ketama/ketama/go"
//		ketama "github.com/ketama/ketama/go/goredis"
//	)
//
//	ring, err := core.New("libketama", "", []core.Server{
//		{Label: "10.0.0.1:6379", Weight: 1}, {Label: "10.0.0.2:6379", Weight: 1},
//	})
//	hook, err := ketama.NewHook(ring)
//	rdb := redis.NewRing(&redis.RingOptions{
//		Addrs:             hook.Addrs(),
//		NewConsistentHash: hook.NewConsistentHash,
//	})
//
// Shard names: go-redis names each shard by its RingOptions.Addrs key and hands the hook
// those names; a server's shard name is its Name, or its Label when it has none. Addrs
// builds that map (each label dialled as it is, port 6379 when it has none).
//
// What go-redis decides before the hook is asked:
//   - Hash tags: go-redis hands the hook only the text inside the first non-empty {...} of a
//     key (its own rule, which cannot be turned off; Predis applies the same one). A key
//     without such a tag reaches the profile whole; a key with one is placed by the profile
//     from that text alone.
//   - Dead shards: go-redis leaves a shard that failed 3 heartbeats out of the names it
//     hands over. The hook then places each key as the profile's client does while those
//     servers are unreachable (core.Ring.IndexAlive: the first live server of the client's
//     own failover sequence); where the client gives up, the key has no shard and go-redis
//     fails the command ("all ring shards are down") rather than use a server the client
//     would not.
//
// It lives in its own module so that the core package depends on nothing.
package ketama

import (
	"errors"
	"fmt"
	"net"
	"sync/atomic"

	core "github.com/ketama/ketama/go"
	"github.com/redis/go-redis/v9"
)

// Server is the core package's Server (label, weight, optional name).
type Server = core.Server

// DefaultPort is the port Addrs gives a label that has none (Redis's).
const DefaultPort = "6379"

// ErrUnknownShard is why a hash answers no shard for any key: go-redis named a shard that is
// not a server of the hook's ring (RingOptions.Addrs and the ring disagree).
var ErrUnknownShard = errors.New("go-redis named a shard that is not on the ketama ring")

// Hook places go-redis Ring keys by a ketama ring. It is safe for concurrent use; SetRing
// replaces the ring atomically (hashes made before keep the ring they were made with).
type Hook struct {
	fleet atomic.Pointer[fleet]
	// problem is the last ErrUnknownShard (nil while the names agree).
	problem atomic.Pointer[error]
}

// fleet is one ring with its shard names.
type fleet struct {
	ring   *core.Ring
	names  []string       // shard name by server index
	byName map[string]int // server index by shard name
}

// NewHook returns a hook placing keys by ring (its profile, hash, servers and options).
// Errors: core.ErrEmptyRing for a ring without servers, a *core.ServerError wrapping
// core.ErrDuplicateServer when two servers share a shard name.
func NewHook(ring *core.Ring) (*Hook, error) {
	h := &Hook{}
	if err := h.SetRing(ring); err != nil {
		return nil, err
	}
	return h, nil
}

// ShardName is the name go-redis knows a server by: its Name, else its Label.
func ShardName(s Server) string {
	if s.Name != "" {
		return s.Name
	}
	return s.Label
}

// SetRing replaces the ring (nothing changes when it fails). Change the go-redis Ring's
// shards to match right after (RingOptions.Addrs, Ring.SetAddrs(hook.Addrs())): until then
// a server the old names lack counts as down, and a name the new ring lacks stops every key.
func (h *Hook) SetRing(ring *core.Ring) error {
	if ring == nil || ring.Len() == 0 {
		return core.ErrEmptyRing
	}
	servers := ring.Servers()
	f := &fleet{ring: ring, names: make([]string, len(servers)), byName: make(map[string]int, len(servers))}
	for i, s := range servers {
		name := ShardName(s)
		if _, dup := f.byName[name]; dup {
			return &core.ServerError{Index: i, Label: s.Label, Err: core.ErrDuplicateServer}
		}
		f.names[i] = name
		f.byName[name] = i
	}
	h.fleet.Store(f)
	return nil
}

// Ring is the ring in use.
func (h *Hook) Ring() *core.Ring { return h.fleet.Load().ring }

// Addrs is RingOptions.Addrs for the ring: shard name -> address, the address being the
// server's label, with DefaultPort added when it has no port.
func (h *Hook) Addrs() map[string]string {
	f := h.fleet.Load()
	out := make(map[string]string, len(f.names))
	for i, s := range f.ring.Servers() {
		addr := s.Label
		if _, _, err := net.SplitHostPort(addr); err != nil {
			host := addr
			if len(host) > 1 && host[0] == '[' && host[len(host)-1] == ']' {
				host = host[1 : len(host)-1]
			}
			addr = net.JoinHostPort(host, DefaultPort)
		}
		out[f.names[i]] = addr
	}
	return out
}

// Err is why the latest hash places no key (ErrUnknownShard naming the shard), or nil.
func (h *Hook) Err() error {
	if p := h.problem.Load(); p != nil {
		return *p
	}
	return nil
}

// Shard is the shard name key goes to with every shard up, or the core's error for it
// (core.ErrKeyRejected for a key the profile's client refuses). It applies no hash tag:
// give it the text go-redis would hand the hook.
func (h *Hook) Shard(key string) (string, error) {
	f := h.fleet.Load()
	i, err := f.ring.Index(key)
	if err != nil {
		return "", err
	}
	return f.names[i], nil
}

// NewConsistentHash is a RingOptions.NewConsistentHash: go-redis calls it with the names
// of the live shards whenever they change.
func (h *Hook) NewConsistentHash(shards []string) redis.ConsistentHash {
	f := h.fleet.Load()
	live := make([]bool, len(f.names))
	for _, name := range shards {
		i, ok := f.byName[name]
		if !ok {
			err := fmt.Errorf("%w: %q", ErrUnknownShard, name)
			h.problem.Store(&err)
			return noShard{}
		}
		live[i] = true
	}
	h.problem.Store(nil)
	var down []int
	for i, up := range live {
		if !up {
			down = append(down, i)
		}
	}
	return &consistent{ring: f.ring, names: f.names, down: down}
}

// consistent answers go-redis's Get for one set of live shards.
type consistent struct {
	ring  *core.Ring
	names []string
	down  []int // server indexes go-redis reports down (nil: none)
}

// Get is the shard key goes to, "" when the profile's client refuses the key or gives up
// (go-redis then fails the command).
func (c *consistent) Get(key string) string {
	i, err := c.ring.IndexAlive(key, c.down)
	if err != nil {
		return ""
	}
	return c.names[i]
}

// noShard answers no shard for any key (the names disagree with the ring: see Hook.Err).
type noShard struct{}

func (noShard) Get(string) string { return "" }
