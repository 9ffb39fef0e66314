// Command goredis_reader reads keys back through go-redis v9's Ring with ketama's hook:
//
//	goredis_reader PROFILE SERVERS_FILE KEYS_FILE
//
// SERVERS_FILE: "host:port weight" lines, the ring's servers in order. Each key is read with
// GET through redis.NewRing(&redis.RingOptions{Addrs: hook.Addrs(), NewConsistentHash:
// hook.NewConsistentHash}), pipelined in batches. A hit is the value "w:" + key. Prints
// "hits=N total=M", then each missed key on its own line (at most 20). Loopback servers
// only; every request has a 5 s timeout, the whole run 60 s.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	ketama "github.com/ketama/ketama/go"
	hook "github.com/ketama/ketama/go/goredis"
	"github.com/redis/go-redis/v9"
)

func die(msg string, err error) {
	fmt.Fprintf(os.Stderr, "goredis_reader: %s: %v\n", msg, err)
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
	if err := s.Err(); err != nil {
		die(path, err)
	}
	return out
}

func servers(path string) []ketama.Server {
	var out []ketama.Server
	for _, l := range lines(path) {
		f := strings.Fields(l)
		if len(f) != 2 || !strings.HasPrefix(f[0], "127.") {
			die(path, fmt.Errorf("want a loopback \"host:port weight\" line, got %q", l))
		}
		w, err := strconv.ParseUint(f[1], 10, 32)
		if err != nil {
			die(path, err)
		}
		out = append(out, ketama.Server{Label: f[0], Weight: uint32(w)})
	}
	return out
}

func main() {
	if len(os.Args) != 4 {
		die("usage", errors.New("goredis_reader PROFILE SERVERS_FILE KEYS_FILE"))
	}
	ring, err := ketama.New(os.Args[1], "", servers(os.Args[2]))
	if err != nil {
		die("profile "+os.Args[1], err)
	}
	h, err := hook.NewHook(ring)
	if err != nil {
		die("hook", err)
	}
	rdb := redis.NewRing(&redis.RingOptions{
		Addrs: h.Addrs(), NewConsistentHash: h.NewConsistentHash,
		DialTimeout: 5 * time.Second, ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second,
	})
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	keys := lines(os.Args[3])
	var missed []string
	for start := 0; start < len(keys); start += 500 {
		batch := keys[start:min(start+500, len(keys))]
		pipe := rdb.Pipeline()
		cmds := make([]*redis.StringCmd, len(batch))
		for i, k := range batch {
			cmds[i] = pipe.Get(ctx, k)
		}
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			die("pipeline", err)
		}
		for i, k := range batch {
			if v, err := cmds[i].Result(); err != nil || v != "w:"+k {
				missed = append(missed, k)
			}
		}
	}
	if err := h.Err(); err != nil {
		die("hook", err)
	}
	fmt.Printf("hits=%d total=%d\n", len(keys)-len(missed), len(keys))
	for i, k := range missed {
		if i == 20 {
			break
		}
		fmt.Println(k)
	}
}
