// Command goredis_upgrade writes keys through go-redis v7's Ring and reads them back through
// go-redis v9's Ring, each with its own default sharding (v7: 100 crc32 points per shard, our
// profile `go-redis-v7`; v9: rendezvous hashing, our profile `go-redis`):
//
//	goredis_upgrade write-v7 SERVERS_FILE N
//	goredis_upgrade read-v9 SERVERS_FILE N
//
// SERVERS_FILE: "host:port" lines; each is a shard named by its address (the Addrs map key the
// Rings hash). Key i is "g:i" with the value "w:g:i"; every other key has a TTL of an hour.
//
// v7 routes a command by its first key, whose position it reads from the server's COMMAND
// table; v7.4.1 parses only the COMMAND replies of Redis 5 and 6 (6 or 7 fields per command:
// Redis 7 sends 10), and without the table it hashes the command's name instead (every SET to
// one shard). So v7 writes with EVAL (`redis.call('SET', ...)` on KEYS[1]), whose key
// position v7 knows without the table: the shard its Ring places the key on, as every keyed
// command of v7 on Redis 6.
// read-v9 prints "hits=H total=N", then each missed key on its own line (at most 20). Loopback
// servers only; every request has a 5 s timeout, the whole run 60 s.
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

	redis7 "github.com/go-redis/redis/v7"
	redis "github.com/redis/go-redis/v9"
)

func die(msg string, err error) {
	fmt.Fprintf(os.Stderr, "goredis_upgrade: %s: %v\n", msg, err)
	os.Exit(2)
}

// addrs reads the servers file: each server a shard named by its address.
func addrs(path string) map[string]string {
	f, err := os.Open(path)
	if err != nil {
		die(path, err)
	}
	defer f.Close()
	out := map[string]string{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) == 0 {
			continue
		}
		if !strings.HasPrefix(fields[0], "127.") {
			die(path, fmt.Errorf("loopback servers only, got %q", fields[0]))
		}
		out[fields[0]] = fields[0]
	}
	if err := s.Err(); err != nil {
		die(path, err)
	}
	return out
}

const batch = 500

// setScript sets KEYS[1] to ARGV[1], with a TTL of ARGV[2] seconds when not 0.
const setScript = `if ARGV[2] == '0' then return redis.call('SET', KEYS[1], ARGV[1]) end
return redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])`

func writeV7(servers map[string]string, n int) {
	ring := redis7.NewRing(&redis7.RingOptions{
		Addrs: servers, HeartbeatFrequency: time.Hour,
		DialTimeout: 5 * time.Second, ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second,
	})
	defer ring.Close()
	for start := 0; start < n; start += batch {
		pipe := ring.Pipeline()
		for i := start; i < min(start+batch, n); i++ {
			k := "g:" + strconv.Itoa(i)
			ttl := 0
			if i%2 == 1 {
				ttl = 3600
			}
			pipe.Eval(setScript, []string{k}, "w:"+k, ttl)
		}
		if _, err := pipe.Exec(); err != nil {
			die("v7 pipeline", err)
		}
	}
	fmt.Printf("written=%d\n", n)
}

func readV9(servers map[string]string, n int) {
	ring := redis.NewRing(&redis.RingOptions{
		Addrs: servers, HeartbeatFrequency: time.Hour,
		DialTimeout: 5 * time.Second, ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second,
	})
	defer ring.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var missed []string
	for start := 0; start < n; start += batch {
		pipe := ring.Pipeline()
		keys := make([]string, 0, batch)
		cmds := make([]*redis.StringCmd, 0, batch)
		for i := start; i < min(start+batch, n); i++ {
			k := "g:" + strconv.Itoa(i)
			keys = append(keys, k)
			cmds = append(cmds, pipe.Get(ctx, k))
		}
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			die("v9 pipeline", err)
		}
		for j, k := range keys {
			if v, err := cmds[j].Result(); err != nil || v != "w:"+k {
				missed = append(missed, k)
			}
		}
	}
	fmt.Printf("hits=%d total=%d\n", n-len(missed), n)
	for i, k := range missed {
		if i == 20 {
			break
		}
		fmt.Println(k)
	}
}

func main() {
	if len(os.Args) != 4 {
		die("usage", errors.New("goredis_upgrade write-v7|read-v9 SERVERS_FILE N"))
	}
	n, err := strconv.Atoi(os.Args[3])
	if err != nil || n < 0 {
		die("N", fmt.Errorf("not a count: %q", os.Args[3]))
	}
	servers := addrs(os.Args[2])
	switch os.Args[1] {
	case "write-v7":
		writeV7(servers, n)
	case "read-v9":
		readV9(servers, n)
	default:
		die("usage", fmt.Errorf("unknown verb %q", os.Args[1]))
	}
}
