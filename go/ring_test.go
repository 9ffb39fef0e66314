package ketama

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

func servers(n int) []Server {
	out := make([]Server, n)
	for i := range out {
		out[i] = Server{Label: fmt.Sprintf("10.0.0.%d:11211", i+1), Weight: 1}
	}
	return out
}

func TestKnownHashes(t *testing.T) {
	for _, c := range []struct {
		name string
		key  string
		want uint32
	}{
		{"md5", "apple", 3195025439},
		{"KETAMA_HASH", "apple", 3195025439},
		{"one_at_a_time", "apple", 2297466611},
		{"sha1", "abc", 0xa9993e36},
		{"crc32a", "123456789", 0xCBF43926},
		{"CRC_HASH", "hello world!", 948},
		{"FNV1_64_HASH", "hello world!", 3111880380},
		{"FNV1A_64_HASH", "hello world!", 3445237362},
		{"FNV1_32_HASH", "hello world!", 2315368860},
		{"FNV1A_32_HASH", "hello world!", 2956263410},
		{"ONE_AT_A_TIME", "hello world!", 2614696403},
		{"FNV1_32_HASH", "emoji😀x", 162790294},
		{"FNV1A_32_HASH", "café", 856211068},
	} {
		got, err := HashKey(c.name, []byte(c.key))
		if err != nil || got != c.want {
			t.Errorf("HashKey(%s, %q) = %d, %v; want %d", c.name, c.key, got, err, c.want)
		}
	}
}

func TestHashNames(t *testing.T) {
	if _, err := HashKey("crc32", nil); !errors.Is(err, ErrAmbiguousHash) {
		t.Errorf("crc32: %v", err)
	}
	if _, err := HashKey("nope", nil); !errors.Is(err, ErrUnknownHash) {
		t.Errorf("nope: %v", err)
	}
	if _, err := HashKey("MD5", nil); err != nil {
		t.Errorf("case-insensitive names: %v", err)
	}
	r, err := New("twemproxy", "crc32", servers(2))
	if err != nil || r.Hash() != "crc" {
		t.Errorf("twemproxy crc32 = %v %v, want crc", r, err)
	}
	if _, err := New("libmemcached", "crc32", servers(2)); !errors.Is(err, ErrAmbiguousHash) {
		t.Errorf("libmemcached crc32: %v", err)
	}
}

func TestProfileHashes(t *testing.T) {
	h, err := ProfileHashes("php-memcached")
	if err != nil || len(h) < 2 || h[0] != "md5" {
		t.Errorf("php-memcached hashes: %v %v", h, err)
	}
	if _, err := ProfileHashes("nope"); !errors.Is(err, ErrUnknownProfile) {
		t.Errorf("unknown profile: %v", err)
	}
}

func TestBuildErrors(t *testing.T) {
	var se *ServerError
	if _, err := New("nope", "", nil); !errors.Is(err, ErrUnknownProfile) {
		t.Errorf("unknown profile: %v", err)
	}
	_, err := New("libketama", "", []Server{{Label: "a:1", Weight: 1}, {Label: "b:0", Weight: 1}})
	if !errors.Is(err, ErrBadLabel) || !errors.As(err, &se) || se.Index != 1 {
		t.Errorf("bad label: %v", err)
	}
	if _, err := New("libketama", "", []Server{{Label: "a:1", Weight: 0}}); !errors.Is(err, ErrBadWeight) {
		t.Errorf("weight 0 on libketama: %v", err)
	}
	if _, err := New("libmemcached", "", []Server{{Label: "a:1", Weight: 0}}); err != nil {
		t.Errorf("weight 0 on libmemcached: %v", err)
	}
	dup := []Server{{Label: "[::1]:11211", Weight: 1}, {Label: "[0:0::1]:11211", Weight: 1}}
	if _, err := New("libketama", "", dup); !errors.Is(err, ErrDuplicateServer) {
		t.Errorf("duplicate: %v", err)
	}
	if _, err := New("xmemcached-nginx", "", []Server{{Label: "cache:11211", Weight: 1}}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("host name on java_nginx: %v", err)
	}
	for _, l := range []string{"", "a b:1", "a:01", "a:65536", "a:-1", "[::1", "[x]:1", "a:b:c", ":1", "a\u00a0:1"} {
		if _, err := New("libketama", "", []Server{{Label: l, Weight: 1}}); !errors.Is(err, ErrBadLabel) {
			t.Errorf("label %q: %v", l, err)
		}
	}
}

// Text that is not UTF-8 is ErrInvalidUtf8 (the C library's answer for the same bytes):
// labels, names, profile and hash names; keys are bytes and are hashed as they are.
func TestInvalidUtf8(t *testing.T) {
	var se *ServerError
	_, err := New("libketama", "", []Server{{Label: "a:1", Weight: 1}, {Label: "10.0.0.\xff:1", Weight: 1}})
	if !errors.Is(err, ErrInvalidUtf8) || !errors.As(err, &se) || se.Index != 1 || se.Label != "10.0.0.\xff:1" {
		t.Errorf("label: %v", err)
	}
	if _, err := New("twemproxy", "", []Server{{Label: "a:1", Weight: 1, Name: "n\xfe"}}); !errors.Is(err, ErrInvalidUtf8) {
		t.Errorf("name: %v", err)
	}
	if _, err := New("lib\xff", "", nil); !errors.Is(err, ErrInvalidUtf8) {
		t.Errorf("profile name: %v", err)
	}
	if _, err := HashKey("md\xff", nil); !errors.Is(err, ErrInvalidUtf8) {
		t.Errorf("hash name: %v", err)
	}
	r, _ := New("libketama", "", servers(3))
	if _, err := r.Get("\xff\x00\xfe"); err != nil {
		t.Errorf("a key that is not UTF-8: %v", err)
	}
}

func TestLookupErrors(t *testing.T) {
	r, _ := New("libketama", "", nil)
	if _, err := r.Get("k"); !errors.Is(err, ErrEmptyRing) {
		t.Errorf("empty ring: %v", err)
	}
	r, _ = New("libmemcached", "", servers(3))
	if _, err := r.Get(""); !errors.Is(err, ErrKeyRejected) {
		t.Errorf("empty key: %v", err)
	}
	long := make([]byte, 251)
	if _, err := r.GetBytes(long); !errors.Is(err, ErrKeyRejected) {
		t.Errorf("251-byte key: %v", err)
	}
	if _, err := r.KeyHash(long); !errors.Is(err, ErrKeyRejected) {
		t.Errorf("251-byte key hash: %v", err)
	}
}

func TestGetNAndFailover(t *testing.T) {
	r, err := New("libketama", "", servers(5))
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.GetN("apple", 9)
	if err != nil || len(got) != 5 {
		t.Fatalf("GetN = %v, %v", got, err)
	}
	seen := map[string]bool{}
	for _, l := range got {
		if seen[l] {
			t.Errorf("repeated %s in %v", l, got)
		}
		seen[l] = true
	}
	first, _ := r.Get("apple")
	if got[0] != first {
		t.Errorf("GetN starts with %s, Get says %s", got[0], first)
	}
	i, _ := r.Index("apple")
	if r.Servers()[i].Label != first {
		t.Errorf("Index %d is not %s", i, first)
	}
	for _, n := range []int{0, -1} {
		if got, err := r.GetN("apple", n); err != nil || len(got) != 0 {
			t.Errorf("GetN(%d) = %v, %v", n, got, err)
		}
		if got, err := r.Failover("apple", n); err != nil || len(got) != 0 {
			t.Errorf("Failover(%d) = %v, %v", n, got, err)
		}
	}
	spy, _ := New("spymemcached", "", servers(3))
	if got, err := spy.Failover("apple", -5); err != nil || len(got) != 0 {
		t.Errorf("spymemcached Failover(-5) = %v, %v", got, err)
	}
	seq, err := spy.Failover("apple", 7)
	if err != nil || len(seq) != 7 {
		t.Errorf("spymemcached failover: %v %v", seq, err)
	}
	if pts := r.Points(); len(pts) != 5*160 {
		t.Errorf("%d points", len(pts))
	}
	mod, _ := New("modula", "", servers(3))
	if mod.Points() != nil {
		t.Error("modula has no continuum")
	}
}

func TestEveryProfileBuildsAndPlaces(t *testing.T) {
	for _, name := range Profiles() {
		r, err := New(name, "", servers(7))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for i := 0; i < 100; i++ {
			// flexihash-seed's floor search finds no server below its smallest point.
			if _, err := r.Get(fmt.Sprintf("key-%d", i)); err != nil && !(name == "flexihash-seed" && errors.Is(err, ErrNoServer)) {
				t.Errorf("%s: %v", name, err)
				break
			}
		}
	}
}

func TestConcurrentReaders(t *testing.T) {
	r, _ := New("libmemcached-weighted", "", servers(20))
	want := make([]string, 1000)
	for i := range want {
		want[i], _ = r.Get(fmt.Sprint(i))
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range want {
				if got, _ := r.Get(fmt.Sprint(i)); got != want[i] {
					t.Errorf("key %d: %s, want %s", i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestGetAllocatesNothing(t *testing.T) {
	// Profiles that hash the key as given allocate nothing per lookup.
	for _, c := range [][2]string{
		{"libketama", ""}, {"libmemcached", ""}, {"libmemcached-weighted", ""}, {"twemproxy", ""},
		{"spymemcached", ""}, {"xmemcached", ""}, {"uhashring", ""}, {"node-hashring", ""},
		{"gomemcache", ""}, {"xmemcached", "FNV1A_32_HASH"}, {"xmemcached", "LUA_HASH"},
		{"memjs", ""}, {"whalin-old-compat", ""}, {"folsom", ""}, {"mcrouter-ch3", ""},
		{"pecl-memcache", ""}, {"dalli", ""}, {"whalin-consistent-sanitized", ""},
	} {
		p := c[0] + " " + c[1]
		r, _ := New(c[0], c[1], servers(10))
		allocs := testing.AllocsPerRun(1000, func() { _, _ = r.Get("some-key-of-moderate-length") })
		if allocs != 0 {
			t.Errorf("%s: %v allocations per Get", p, allocs)
		}
	}
}

func TestRewrittenKeysAllocateNothing(t *testing.T) {
	long := string(make([]byte, 300)) + "é"
	for _, c := range [][2]string{{"dalli", long}, {"whalin-consistent-sanitized", "a key/with spaces & ü"}, {"pecl-memcache", "a key\twith blanks"}} {
		r, _ := New(c[0], "", servers(10))
		want, err := r.Get(c[1])
		if err != nil {
			t.Fatalf("%s: %v", c[0], err)
		}
		allocs := testing.AllocsPerRun(1000, func() {
			if got, _ := r.Get(c[1]); got != want {
				t.Fatalf("%s: %s then %s", c[0], want, got)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per Get", c[0], allocs)
		}
	}
}
