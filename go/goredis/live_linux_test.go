//go:build linux

package ketama

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	core "github.com/ketama/ketama/go"
	"github.com/redis/go-redis/v9"
)

// redisServer is one redis-server process on 127.0.0.1, stopped when the test ends (and
// killed with the test binary: Pdeathsig).
type redisServer struct {
	addr string
	cmd  *exec.Cmd
}

// startRedis starts n redis-server processes on free ports picked now. Without
// redis-server the test is skipped, unless KETAMA_REQUIRE_REDIS=1 makes that a failure.
func startRedis(t *testing.T, n int) []*redisServer {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("KETAMA_REQUIRE_REDIS") == "1" {
			t.Fatal("redis-server not found (KETAMA_REQUIRE_REDIS=1)")
		}
		t.Skip("redis-server not found")
	}
	var out []*redisServer
	for i := 0; i < n; i++ {
		var s *redisServer
		// A port picked free can be taken before redis-server binds it: try another.
		for attempt := 0; s == nil && attempt < 5; attempt++ {
			s = tryRedis(t, bin)
		}
		if s == nil {
			t.Fatal("redis-server did not start on 5 free ports")
		}
		out = append(out, s)
	}
	return out
}

func tryRedis(t *testing.T, bin string) *redisServer {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin, "--bind", "127.0.0.1", "--port", strconv.Itoa(port), "--save", "",
		"--appendonly", "no", "--daemonize", "no", "--loglevel", "warning", "--dir", t.TempDir())
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &redisServer{addr: "127.0.0.1:" + strconv.Itoa(port), cmd: cmd}
	t.Cleanup(s.stop)
	c := redis.NewClient(&redis.Options{Addr: s.addr, DialTimeout: time.Second, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return s
		}
		if cmd.ProcessState != nil || syscall.Kill(cmd.Process.Pid, 0) != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stop()
	return nil
}

// stop kills the process and reaps it (idempotent).
func (s *redisServer) stop() {
	if s.cmd.Process != nil && s.cmd.ProcessState == nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	}
}

// direct is a plain client of one server (no ring).
func direct(t *testing.T, addr string) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: 2 * time.Second, ReadTimeout: 2 * time.Second, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	return c
}

// Keys written through go-redis's Ring with the hook are on the server the profile names,
// and on the server its failover names while one is down.
func TestLiveRing(t *testing.T) {
	procs := startRedis(t, 4)
	servers := make([]Server, len(procs))
	for i, p := range procs {
		servers[i] = Server{Label: p.addr, Weight: uint32(i%3 + 1)}
	}
	ring, err := core.New("libketama", "", servers)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHook(ring)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewRing(&redis.RingOptions{
		Addrs: h.Addrs(), NewConsistentHash: h.NewConsistentHash,
		HeartbeatFrequency: 50 * time.Millisecond, DialTimeout: time.Second,
		ReadTimeout: 2 * time.Second, WriteTimeout: 2 * time.Second, MaxRetries: -1,
	})
	t.Cleanup(func() { rdb.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	const n = 2000
	perServer := make([]int64, len(procs))
	pipe := rdb.Pipeline()
	for i := 0; i < n; i++ {
		k := fmt.Sprintf("user:%d", i)
		pipe.Set(ctx, k, "v"+k, 0)
		idx, _ := ring.Index(k)
		perServer[idx]++
	}
	if _, err := pipe.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	for i, p := range procs {
		c := direct(t, p.addr)
		size, err := c.DBSize(ctx).Result()
		if err != nil {
			t.Fatal(err)
		}
		if size != perServer[i] || size == 0 {
			t.Fatalf("server %d holds %d keys, the ring names it for %d", i, size, perServer[i])
		}
	}
	for i := 0; i < n; i += 7 {
		k := fmt.Sprintf("user:%d", i)
		idx, _ := ring.Index(k)
		if v, err := direct(t, procs[idx].addr).Get(ctx, k).Result(); err != nil || v != "v"+k {
			t.Fatalf("%s on %s: %q %v", k, procs[idx].addr, v, err)
		}
	}

	// Server 1 goes away; once go-redis's heartbeat drops it, its keys go where libketama's
	// walk sends them.
	procs[1].stop()
	for deadline := time.Now().Add(10 * time.Second); rdb.Len() != 3; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("go-redis still counts %d live shards", rdb.Len())
		}
	}
	moved := 0
	for i := 0; i < 300; i++ {
		k := fmt.Sprintf("late:%d", i)
		if err := rdb.Set(ctx, k, "x", 0).Err(); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		want, err := ring.IndexAlive(k, []int{1})
		if err != nil {
			t.Fatal(err)
		}
		if primary, _ := ring.Index(k); primary == 1 {
			moved++
		}
		if v, err := direct(t, procs[want].addr).Get(ctx, k).Result(); err != nil || v != "x" {
			t.Fatalf("%s not on %s: %q %v", k, procs[want].addr, v, err)
		}
	}
	if moved == 0 {
		t.Fatal("no key of the stopped server was written")
	}
}

// With the go-redis profile, the hook routes as go-redis's own default hash does, also once
// a shard is down (go-redis then hashes over the live shards alone; the profile walks its
// rendezvous order to the first live server): both Rings watch the same servers.
func TestLiveGoRedisProfileWithAShardDown(t *testing.T) {
	procs := startRedis(t, 4)
	servers := make([]Server, len(procs))
	for i, p := range procs {
		servers[i] = Server{Label: p.addr, Weight: 1}
	}
	servers[2].Name = "named-shard"
	ring, err := core.New("go-redis", "", servers)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHook(ring)
	if err != nil {
		t.Fatal(err)
	}
	opts := func(hash func([]string) redis.ConsistentHash) *redis.RingOptions {
		return &redis.RingOptions{
			Addrs: h.Addrs(), NewConsistentHash: hash, HeartbeatFrequency: 50 * time.Millisecond,
			DialTimeout: time.Second, ReadTimeout: time.Second, MaxRetries: -1,
		}
	}
	theirs, ours := redis.NewRing(opts(nil)), redis.NewRing(opts(h.NewConsistentHash))
	t.Cleanup(func() { theirs.Close(); ours.Close() })
	same := func(when string) {
		for i := 0; i < 2000; i++ {
			for _, key := range []string{fmt.Sprintf("user:%d", i), fmt.Sprintf("{user:%d}:name", i)} {
				a, errA := theirs.GetShardClientForKey(key)
				b, errB := ours.GetShardClientForKey(key)
				if errA != nil || errB != nil {
					t.Fatalf("%s %s: %v / %v", when, key, errA, errB)
				}
				if a.Options().Addr != b.Options().Addr {
					t.Fatalf("%s %s: go-redis %s, hook %s", when, key, a.Options().Addr, b.Options().Addr)
				}
			}
		}
	}
	same("all up")
	procs[2].stop()
	for deadline := time.Now().Add(10 * time.Second); theirs.Len() != 3 || ours.Len() != 3; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("go-redis still counts %d and %d live shards", theirs.Len(), ours.Len())
		}
	}
	same("one down")
}
