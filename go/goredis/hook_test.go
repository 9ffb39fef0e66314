package ketama

import (
	"errors"
	"fmt"
	"math/rand"
	"testing"

	core "github.com/ketama/ketama/go"
	"github.com/redis/go-redis/v9"
)

func servers4() []Server {
	return []Server{
		{Label: "127.0.0.1:6379", Weight: 1},
		{Label: "127.0.0.2:6380", Weight: 2},
		{Label: "[::1]:6381", Weight: 1},
		{Label: "127.0.0.3", Weight: 3},
	}
}

func mustHook(t *testing.T, profile string, servers []Server) (*Hook, *core.Ring) {
	t.Helper()
	r, err := core.New(profile, "", servers)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHook(r)
	if err != nil {
		t.Fatal(err)
	}
	return h, r
}

// names lists the shard names of a hook's ring in a shuffled order, as go-redis hands them
// over (Go map order).
func names(h *Hook, rng *rand.Rand) []string {
	var out []string
	for name := range h.Addrs() {
		out = append(out, name)
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func TestGetIsTheRingsAnswer(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	// Order-dependent placements (modula, jump) too: go-redis's shard order must not count.
	for _, profile := range []string{"libketama", "twemproxy", "dalli", "spymemcached", "modula", "jump", "rendezvous", "php-memcached"} {
		h, r := mustHook(t, profile, servers4())
		for round := 0; round < 3; round++ {
			ch := h.NewConsistentHash(names(h, rng))
			for i := 0; i < 2000; i++ {
				k := fmt.Sprintf("user:%d", i)
				label, err := r.Get(k)
				if err != nil {
					t.Fatal(err)
				}
				if got := ch.Get(k); got != label {
					t.Fatalf("%s %s: hook %q, ring %q", profile, k, got, label)
				}
			}
		}
	}
}

func TestShardNamesAreServerNames(t *testing.T) {
	servers := []Server{
		{Label: "127.0.2.1:6379", Weight: 1, Name: "alpha"},
		{Label: "127.0.2.2:6379", Weight: 1, Name: "beta"},
		{Label: "127.0.2.3:6379", Weight: 1},
	}
	h, r := mustHook(t, "twemproxy", servers)
	want := map[string]string{"alpha": "127.0.2.1:6379", "beta": "127.0.2.2:6379", "127.0.2.3:6379": "127.0.2.3:6379"}
	if got := h.Addrs(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("Addrs %v, want %v", got, want)
	}
	ch := h.NewConsistentHash([]string{"127.0.2.3:6379", "beta", "alpha"})
	for i := 0; i < 500; i++ {
		k := fmt.Sprintf("k%d", i)
		idx, _ := r.Index(k)
		if got := ch.Get(k); got != ShardName(servers[idx]) {
			t.Fatalf("%s: %q, want %q", k, got, ShardName(servers[idx]))
		}
	}
}

func TestAddrs(t *testing.T) {
	h, _ := mustHook(t, "libketama", servers4())
	want := map[string]string{
		"127.0.0.1:6379": "127.0.0.1:6379", "127.0.0.2:6380": "127.0.0.2:6380",
		"[::1]:6381": "[::1]:6381", "127.0.0.3": "127.0.0.3:6379",
	}
	if got := h.Addrs(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("Addrs %v, want %v", got, want)
	}
}

func TestDeadShardsFollowTheClientsFailover(t *testing.T) {
	for _, profile := range []string{"libketama", "dalli", "spymemcached", "modula"} {
		h, r := mustHook(t, profile, servers4())
		all := h.Addrs()
		// server 1 ("127.0.0.2:6380") is down: go-redis leaves it out
		var live []string
		for name := range all {
			if name != "127.0.0.2:6380" {
				live = append(live, name)
			}
		}
		ch := h.NewConsistentHash(live)
		moved := 0
		for i := 0; i < 2000; i++ {
			k := fmt.Sprintf("session:%d", i)
			want, err := r.IndexAlive(k, []int{1})
			if err != nil {
				t.Fatal(err)
			}
			got := ch.Get(k)
			if got != servers4()[want].Label {
				t.Fatalf("%s %s: hook %q, IndexAlive %q", profile, k, got, servers4()[want].Label)
			}
			if primary, _ := r.Index(k); primary == 1 {
				moved++
			}
			if got == "127.0.0.2:6380" {
				t.Fatalf("%s %s: placed on the dead shard", profile, k)
			}
		}
		if moved == 0 {
			t.Fatalf("%s: no key had the dead server as primary", profile)
		}
	}
}

func TestNoShardWhereTheClientGivesUp(t *testing.T) {
	// emcache keeps its pick: a key of a dead server has no other server.
	h, r := mustHook(t, "emcache", servers4())
	ch := h.NewConsistentHash([]string{"127.0.0.1:6379", "[::1]:6381", "127.0.0.3"})
	none, some := 0, 0
	for i := 0; i < 1000; i++ {
		k := fmt.Sprintf("k%d", i)
		primary, _ := r.Index(k)
		got := ch.Get(k)
		switch {
		case primary == 1 && got != "":
			t.Fatalf("%s: dead primary, hook says %q", k, got)
		case primary == 1:
			none++
		case got != servers4()[primary].Label:
			t.Fatalf("%s: %q, want %q", k, got, servers4()[primary].Label)
		default:
			some++
		}
	}
	if none == 0 || some == 0 {
		t.Fatalf("none %d some %d", none, some)
	}
	// and every shard down: no key has a shard
	if got := h.NewConsistentHash(nil).Get("k1"); got != "" {
		t.Fatalf("no live shard: %q", got)
	}
}

func TestRefusedKeyHasNoShard(t *testing.T) {
	h, _ := mustHook(t, "php-memcached", servers4())
	ch := h.NewConsistentHash(names(h, rand.New(rand.NewSource(2))))
	long := string(make([]byte, 300))
	if got := ch.Get(long); got != "" {
		t.Fatalf("a key php-memcached refuses: %q", got)
	}
	if _, err := h.Shard(long); !errors.Is(err, core.ErrKeyRejected) {
		t.Fatalf("Shard: %v", err)
	}
	if s, err := h.Shard("user:1"); err != nil || s == "" {
		t.Fatalf("Shard: %q %v", s, err)
	}
}

func TestUnknownShardStopsEveryKey(t *testing.T) {
	h, _ := mustHook(t, "libketama", servers4())
	ch := h.NewConsistentHash([]string{"127.0.0.1:6379", "elsewhere:6379"})
	if got := ch.Get("k"); got != "" {
		t.Fatalf("unknown shard: %q", got)
	}
	if err := h.Err(); !errors.Is(err, ErrUnknownShard) {
		t.Fatalf("Err: %v", err)
	}
	h.NewConsistentHash([]string{"127.0.0.1:6379"})
	if err := h.Err(); err != nil {
		t.Fatalf("Err after agreeing names: %v", err)
	}
}

func TestBadRings(t *testing.T) {
	empty, _ := core.New("libketama", "", nil)
	if _, err := NewHook(empty); !errors.Is(err, core.ErrEmptyRing) {
		t.Errorf("empty ring: %v", err)
	}
	if _, err := NewHook(nil); !errors.Is(err, core.ErrEmptyRing) {
		t.Errorf("nil ring: %v", err)
	}
	twin, err := core.New("twemproxy", "", []Server{
		{Label: "127.0.2.1:6379", Weight: 1, Name: "a"}, {Label: "127.0.2.2:6379", Weight: 1, Name: "a"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var se *core.ServerError
	if _, err := NewHook(twin); !errors.Is(err, core.ErrDuplicateServer) || !errors.As(err, &se) || se.Index != 1 {
		t.Errorf("two servers named a: %v", err)
	}
	// A failed SetRing leaves the ring as it was.
	h, r := mustHook(t, "libketama", servers4())
	if err := h.SetRing(twin); err == nil || h.Ring() != r {
		t.Errorf("SetRing(twin): %v", err)
	}
}

func TestSetRing(t *testing.T) {
	h, _ := mustHook(t, "libketama", servers4())
	old := h.NewConsistentHash(names(h, rand.New(rand.NewSource(3))))
	next, _ := core.New("libketama", "", servers4()[:2])
	if err := h.SetRing(next); err != nil {
		t.Fatal(err)
	}
	if len(h.Addrs()) != 2 {
		t.Fatalf("Addrs after SetRing: %v", h.Addrs())
	}
	now := h.NewConsistentHash([]string{"127.0.0.1:6379", "127.0.0.2:6380"})
	differ := 0
	for i := 0; i < 1000; i++ {
		k := fmt.Sprintf("k%d", i)
		want, _ := next.Get(k)
		if now.Get(k) != want {
			t.Fatalf("%s: %q, want %q", k, now.Get(k), want)
		}
		if old.Get(k) != want {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("the hash made before SetRing follows the new ring")
	}
}

// go-redis itself routes by the hook, after its own hash tag rule (no connection is made:
// the Ring is never asked to run a command).
func TestThroughGoRedisRing(t *testing.T) {
	h, r := mustHook(t, "libketama", servers4())
	rdb := redis.NewRing(&redis.RingOptions{Addrs: h.Addrs(), NewConsistentHash: h.NewConsistentHash})
	defer rdb.Close()
	addrs := h.Addrs()
	for i := 0; i < 500; i++ {
		k := fmt.Sprintf("user:%d", i)
		label, _ := r.Get(k)
		for _, key := range []string{k, "{" + k + "}:name", "cart:{" + k + "}", "x{" + k + "}y{z}"} {
			c, err := rdb.GetShardClientForKey(key)
			if err != nil {
				t.Fatal(err)
			}
			if c.Options().Addr != addrs[label] {
				t.Fatalf("%s: go-redis chose %s, ring says %s", key, c.Options().Addr, addrs[label])
			}
		}
	}
	// no tag, or an empty one: the whole key is the profile's
	for _, key := range []string{"{}x", "a{b", "a}b{"} {
		label, _ := r.Get(key)
		c, _ := rdb.GetShardClientForKey(key)
		if c.Options().Addr != addrs[label] {
			t.Fatalf("%s: go-redis chose %s, ring says %s", key, c.Options().Addr, addrs[label])
		}
	}
}

func TestGetAllocatesNothing(t *testing.T) {
	h, _ := mustHook(t, "libketama", servers4())
	ch := h.NewConsistentHash(names(h, rand.New(rand.NewSource(4))))
	if n := testing.AllocsPerRun(1000, func() { _ = ch.Get("user:42") }); n != 0 {
		t.Fatalf("Get allocates %v times", n)
	}
}

// Where the port has go-redis's own profile, the hook with it routes as go-redis's default
// hash does (rendezvous over the shard names), hash tags included.
func TestGoRedisProfileEqualsGoRedisOwnHash(t *testing.T) {
	servers := servers4()
	servers[3].Name = "named-shard"
	r, err := core.New("go-redis", "", servers)
	if errors.Is(err, core.ErrUnknownProfile) {
		t.Skip("this port has no go-redis profile")
	}
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHook(r)
	if err != nil {
		t.Fatal(err)
	}
	theirs := redis.NewRing(&redis.RingOptions{Addrs: h.Addrs()})
	defer theirs.Close()
	ours := redis.NewRing(&redis.RingOptions{Addrs: h.Addrs(), NewConsistentHash: h.NewConsistentHash})
	defer ours.Close()
	for i := 0; i < 3000; i++ {
		for _, key := range []string{fmt.Sprintf("user:%d", i), fmt.Sprintf("{user:%d}:name", i), fmt.Sprintf("a{}{%d}", i)} {
			a, err := theirs.GetShardClientForKey(key)
			if err != nil {
				t.Fatal(err)
			}
			b, err := ours.GetShardClientForKey(key)
			if err != nil {
				t.Fatal(err)
			}
			if a.Options().Addr != b.Options().Addr {
				t.Fatalf("%s: go-redis %s, hook %s", key, a.Options().Addr, b.Options().Addr)
			}
		}
	}
}
