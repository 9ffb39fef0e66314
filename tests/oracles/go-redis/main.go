// Command goredis-oracle drives the real go-redis Ring of v9 (github.com/redis/go-redis/v9) and
// v7 (github.com/go-redis/redis/v7) for the jobs in the JSON file named by its argument, and
// prints, per job, the index of the server each key went to (null if the client gave none).
// Used by tests/oracles/go-redis/gen.py.
//
// Nothing connects: every shard client gets a hook that stops each command before it takes a
// connection, with an error naming the shard, and a dialer that refuses. The Ring is built
// `builds` times per job (Go map order, so the shard list order, differs between builds) and
// every build must answer the same.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	redis7 "github.com/go-redis/redis/v7"
	redis "github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

type server struct {
	Name string `json:"name"` // the Addrs map key: the shard name the Ring hashes
	Addr string `json:"addr"` // the Addrs map value: the address the shard client dials
}

type job struct {
	Client  string   `json:"client"` // "v9" or "v7"
	Servers []server `json:"servers"`
	Keys    []string `json:"keys"`
	Builds  int      `json:"builds"`
}

// stopped is the error the hooks return: it names the shard the command was sent to.
type stopped struct{ shard string }

func (s stopped) Error() string { return "oracle: command stopped at shard " + s.shard }

var errNoDial = errors.New("oracle: no connection is ever made")

// ---- v9 ------------------------------------------------------------------------------------

type stopHook9 struct{ addr string }

func (h stopHook9) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) { return nil, errNoDial }
}

func (h stopHook9) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error { return stopped{h.addr} }
}

func (h stopHook9) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error { return stopped{h.addr} }
}

// run9 answers, per key, the address of the shard: GetShardClientForKey (ringSharding.GetByKey)
// and the shard a GET command is sent to must agree.
func run9(j job) ([]string, error) {
	addrs := map[string]string{}
	for _, s := range j.Servers {
		addrs[s.Name] = s.Addr
	}
	ring := redis.NewRing(&redis.RingOptions{
		Addrs:              addrs,
		HeartbeatFrequency: 24 * time.Hour,
		NewClient: func(o *redis.Options) *redis.Client {
			// maintenance notifications off: with them on, NewClient looks the host up in DNS
			o.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
			o.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) { return nil, errNoDial }
			c := redis.NewClient(o)
			c.AddHook(stopHook9{o.Addr})
			return c
		},
	})
	defer ring.Close()
	ctx := context.Background()
	out := make([]string, len(j.Keys))
	for i, k := range j.Keys {
		c, err := ring.GetShardClientForKey(k)
		if err != nil {
			return nil, fmt.Errorf("GetShardClientForKey(%q): %w", k, err)
		}
		var st stopped
		if err := ring.Get(ctx, k).Err(); !errors.As(err, &st) {
			return nil, fmt.Errorf("GET %q: %v", k, err)
		}
		if st.shard != c.Options().Addr {
			return nil, fmt.Errorf("GET %q went to %s, GetShardClientForKey says %s", k, st.shard, c.Options().Addr)
		}
		out[i] = st.shard
	}
	return out, nil
}

// ---- v7 ------------------------------------------------------------------------------------

type stopHook7 struct{ name string }

func (h stopHook7) BeforeProcess(ctx context.Context, cmd redis7.Cmder) (context.Context, error) {
	return ctx, stopped{h.name}
}

func (h stopHook7) AfterProcess(ctx context.Context, cmd redis7.Cmder) error { return nil }

func (h stopHook7) BeforeProcessPipeline(ctx context.Context, cmds []redis7.Cmder) (context.Context, error) {
	return ctx, stopped{h.name}
}

func (h stopHook7) AfterProcessPipeline(ctx context.Context, cmds []redis7.Cmder) error { return nil }

// run7 answers, per key, the name of the shard. v7's Ring has no public shard-for-key call, and
// routes GET only with the COMMAND table a live server returns (without it, a random shard).
// So each key is sent as EVAL with one key (the Ring routes EVAL by its first key, position 3,
// without the table): Ring.cmdShard -> ringShards.GetByKey(key), which applies hashtag.Key, as
// GET does on a live ring. For a non-empty key, WATCH (GetByKey(hashtag.Key(key))) must agree.
func run7(j job) ([]string, error) {
	addrs := map[string]string{}
	for _, s := range j.Servers {
		addrs[s.Name] = s.Addr
	}
	ring := redis7.NewRing(&redis7.RingOptions{
		Addrs:              addrs,
		HeartbeatFrequency: 24 * time.Hour,
		NewClient: func(name string, o *redis7.Options) *redis7.Client {
			o.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) { return nil, errNoDial }
			c := redis7.NewClient(o)
			c.AddHook(stopHook7{name})
			return c
		},
	})
	defer ring.Close()
	out := make([]string, len(j.Keys))
	for i, k := range j.Keys {
		var st stopped
		if err := ring.Eval("return 1", []string{k}).Err(); !errors.As(err, &st) {
			return nil, fmt.Errorf("EVAL %q: %v", k, err)
		}
		out[i] = st.shard
		if k == "" {
			continue // WATCH skips empty keys
		}
		var w stopped
		if err := ring.Watch(func(*redis7.Tx) error { return nil }, k); !errors.As(err, &w) {
			return nil, fmt.Errorf("WATCH %q: %v", k, err)
		}
		if w.shard != st.shard {
			return nil, fmt.Errorf("WATCH %q went to %s, EVAL to %s", k, w.shard, st.shard)
		}
	}
	return out, nil
}

// ---- jobs ----------------------------------------------------------------------------------

func runJob(j job) ([]*int, error) {
	index := map[string]int{}
	for i, s := range j.Servers {
		id := s.Addr
		if j.Client == "v7" {
			id = s.Name
		}
		if _, dup := index[id]; dup {
			return nil, fmt.Errorf("duplicate shard %q", id)
		}
		index[id] = i
	}
	var first []string
	for b := 0; b < j.Builds; b++ {
		var got []string
		var err error
		switch j.Client {
		case "v9":
			got, err = run9(j)
		case "v7":
			got, err = run7(j)
		default:
			err = fmt.Errorf("unknown client %q", j.Client)
		}
		if err != nil {
			return nil, err
		}
		if b == 0 {
			first = got
			continue
		}
		for i := range got {
			if got[i] != first[i] {
				return nil, fmt.Errorf("build %d placed %q on %s, build 0 on %s", b, j.Keys[i], got[i], first[i])
			}
		}
	}
	out := make([]*int, len(first))
	for i, id := range first {
		x, ok := index[id]
		if !ok {
			return nil, fmt.Errorf("unknown shard %q", id)
		}
		out[i] = &x
	}
	return out, nil
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var jobs []job
	if err := json.Unmarshal(data, &jobs); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	res := make([][]*int, 0, len(jobs))
	for _, j := range jobs {
		r, err := runJob(j)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		res = append(res, r)
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
