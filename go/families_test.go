package ketama

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// XXH3_64bits of key[i] = i*31 + n*7 + 1 (mod 256), n = len, one length per branch and at
// each boundary, as the reference implementation (xxhash-rust 0.8.21 xxh3_64) gives them.
func TestXxh3ReferenceValues(t *testing.T) {
	lens := []int{0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33, 64, 65, 96, 97, 128, 129, 200, 240, 241, 255, 256, 1023, 1024, 1025, 1088, 2048, 4097}
	want := []uint64{3244421341483603138, 15874345324738025261, 14186528474905861181, 15460376305270860646, 12213060506185544475, 16111842843506866066, 16072452712488031512, 13649579840224678564, 14339534050746707784, 2581739760586466705, 16790989001956059265, 5942761734958512492, 4120963551310073932, 17345512415434654503, 1920183868384168175, 2522747457511168178, 11506305781529167726, 6399415333318461374, 17964655265976344811, 12654803894382037808, 332892034233991198, 2079335334488675317, 16343159539005720355, 8198593584000166783, 14448171176551793522, 9144318842285012702, 6332268030344158253, 2471772861005386850, 8452692808728482614}
	for i, n := range lens {
		k := make([]byte, n)
		for j := range k {
			k[j] = byte(j*31 + n*7 + 1)
		}
		if got := xxh3(k); got != want[i] {
			t.Errorf("xxh3 of %d bytes = %d, want %d", n, got, want[i])
		}
	}
	if h, _ := HashKey("xxh3", nil); h != uint32(want[0]) {
		t.Errorf("HashKey(xxh3, empty) = %d", h)
	}
}

// The reference MurmurHash3_x64_128 output bytes (as PyPI mmh3 hash_bytes gives them).
func TestMurmur3x64128Reference(t *testing.T) {
	for key, want := range map[string]string{
		"":                    "00000000000000000000000000000000",
		"hello":               "029bbd41b3a7d8cb191dae486a901e5b",
		"0123456789abcdefXYZ": "1d904a6c0275d399f39cf8ea56e2694e",
	} {
		h1, h2 := murmur3x64128([]byte(key), 0)
		var out [16]byte
		for i := 0; i < 8; i++ {
			out[i], out[8+i] = byte(h1>>(8*i)), byte(h2>>(8*i))
		}
		if got := hex.EncodeToString(out[:]); got != want {
			t.Errorf("murmur3_x64_128(%q) = %s, want %s", key, got, want)
		}
	}
}

func TestEmcacheSignExtension(t *testing.T) {
	for _, key := range []string{"hello", "a", "", "key:1", "10.0.0.111211"} {
		h1, _ := murmur3x64128([]byte(key), 0)
		d := [4]byte{byte(h1), byte(h1 >> 8), byte(h1 >> 16), byte(h1 >> 24)}
		want := uint32(d[0])
		if d[0] >= 0x80 {
			want |= 0xFFFFFF00
		}
		if d[1] >= 0x80 {
			want |= 0xFFFFFF00
		}
		if d[2] >= 0x80 {
			want |= 0xFFFF0000
		}
		if d[3] >= 0x80 {
			want |= 0xFF000000
		}
		if got := emcacheMurmur3([]byte(key)); got != want {
			t.Errorf("emcache_murmur3(%q) = %#x, want %#x", key, got, want)
		}
	}
}

func TestPymemcacheMurmur3ReadsCharacters(t *testing.T) {
	for _, k := range []string{"", "a", "ab", "abc", "abcd", "10.0.0.1:11211-foo", "hello world!"} {
		if got, want := pymemcacheMurmur3([]byte(k)), murmur3x86([]byte(k), 0); got != want {
			t.Errorf("%q: %d, plain murmur3 %d", k, got, want)
		}
	}
	cases := []struct{ key, low []byte }{
		{[]byte("é"), []byte{0xE9}},
		{[]byte("x日😀"), []byte{'x', 0xE5, 0x00}},
		{[]byte{'a', 0xFF}, []byte{'a', 0xFF}},               // invalid byte as itself
		{[]byte{0xE2, 0x82, 'z'}, []byte{0xE2, 0x82, 'z'}},   // truncated sequence
		{[]byte("\uFFFD"), []byte{0xFD}},                     // a real U+FFFD is one character
		{[]byte{0xED, 0xA0, 0x80}, []byte{0xED, 0xA0, 0x80}}, // encoded surrogate: bytes
	}
	for _, c := range cases {
		if got, want := pymemcacheMurmur3(c.key), murmur3x86(c.low, 0); got != want {
			t.Errorf("%x: %d, want murmur3 of %x = %d", c.key, got, c.low, want)
		}
	}
}

func TestKeyChars(t *testing.T) {
	type tc struct {
		rule keyChars
		key  string
		ok   bool
	}
	for _, c := range []tc{
		{charsAny, "a b\x00", true},
		{charsControls, "a\x7f", true}, {charsControls, "a b", false}, {charsControls, "\x01", false},
		{charsControlsDel, "a\x7f", false}, {charsControlsDel, "é", true},
		{charsPyWhitespace, "a b", false}, {charsPyWhitespace, "  \t", true}, {charsPyWhitespace, "", true},
		{charsPyWhitespace, "a\x00", false}, {charsPyWhitespace, "é", true}, {charsPyWhitespace, "a\x0bb", false},
		{charsPyWhitespaceAscii, "é", false}, {charsPyWhitespaceAscii, "\n\n", true}, {charsPyWhitespaceAscii, "ab", true},
		{charsPythonMemcached, "abc\n", true}, {charsPythonMemcached, "abc\n\n", false}, {charsPythonMemcached, "\n", false},
		{charsPythonMemcached, "", false}, {charsPythonMemcached, "a\x7f", false}, {charsPythonMemcached, "é", true},
	} {
		if got := c.rule.allows([]byte(c.key)); got != c.ok {
			t.Errorf("rule %d, key %q: allows = %v, want %v", c.rule, c.key, got, c.ok)
		}
	}
}

func TestPyBytesRepr(t *testing.T) {
	for key, want := range map[string]string{
		"abc":              `b'abc'`,
		"it's":             `b"it's"`,
		`a'"b`:             `b'a\'"b'`,
		`say "hi"`:         `b'say "hi"'`,
		"t\tn\nr\r\\":      `b't\tn\nr\r\\'`,
		"\x00\x1f\x7f\xff": `b'\x00\x1f\x7f\xff'`,
		"":                 `b''`,
	} {
		if got := string(pyBytesRepr([]byte(key), nil)); got != want {
			t.Errorf("repr(%q) = %s, want %s", key, got, want)
		}
	}
}

func TestNewNodeForms(t *testing.T) {
	for _, c := range []struct {
		form        nodeForm
		label, want string
	}{
		{nodeHostThenPort, "10.0.0.1:11211", "10.0.0.111211"},
		{nodeHostThenPort, "cache", "cache11211"},
		{nodeHostThenPort, "[2001:db8::1]:11212", "2001:db8::111212"},
		{nodeHostSlashHostPort, "10.0.0.1:11212", "10.0.0.1/10.0.0.1:11212"},
		{nodeHostSlashHostPort, "cache", "cache/cache:11211"},
	} {
		s, err := parseServer(Server{Label: c.label, Weight: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := nodeString(c.form, &s, false, 0); got != c.want {
			t.Errorf("%d %s: %q, want %q", c.form, c.label, got, c.want)
		}
	}
}

// The clients' retry rules give at most their own number of lookups.
func TestClientFailoverLimits(t *testing.T) {
	servers := make([]Server, 5)
	for i := range servers {
		servers[i] = Server{Label: fmt.Sprintf("10.0.0.%d:11211", i+1), Weight: 1}
	}
	for profile, limit := range map[string]int{"dalli": 20, "python-memcached": 10, "emcache": 1} {
		r, err := New(profile, "", servers)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Failover("some:key", 100)
		if err != nil || len(got) != limit {
			t.Errorf("%s: %d entries (%v), want %d", profile, len(got), err, limit)
		}
		first, _ := r.Get("some:key")
		if len(got) > 0 && got[0] != first {
			t.Errorf("%s: sequence starts at %s, Get says %s", profile, got[0], first)
		}
		if got, _ := r.Failover("some:key", 0); len(got) != 0 {
			t.Errorf("%s: n = 0 gave %v", profile, got)
		}
	}
	// dalli with one server: no continuum to rehash on, the client gives up after it.
	r, _ := New("dalli", "", servers[:1])
	if got, _ := r.Failover("k", 20); len(got) != 1 {
		t.Errorf("dalli, one server: %v", got)
	}
}

// The new lookups allocate nothing, as the rest of the key -> server path.
func TestFamiliesLookupsAllocateNothing(t *testing.T) {
	servers := []Server{{Label: "10.0.0.1:11211", Weight: 1}, {Label: "10.0.0.2:11211", Weight: 2}, {Label: "10.0.0.3:11212", Weight: 1}}
	for _, p := range []string{"pymemcache", "pymemcache-bytes", "django-pymemcache", "emcache", "python-memcached", "memcached-proxy", "memcached-proxy-ring", "memcached-proxy-ring-evcache"} {
		r, err := New(p, "", servers)
		if err != nil {
			t.Fatal(p, err)
		}
		key := []byte("user:1234:profile")
		r.locate(key)
		if n := testing.AllocsPerRun(200, func() { r.locate(key) }); n != 0 {
			t.Errorf("%s: %v allocations per lookup", p, n)
		}
	}
}

// emcache's hash takes 1,152 values, so equal scores are common: the tie rule must not
// allocate either, and must pick the greater node hash.
func TestEmcacheTiesAllocateNothing(t *testing.T) {
	servers := make([]Server, 40)
	for i := range servers {
		servers[i] = Server{Label: fmt.Sprintf("10.0.1.%d:11211", i+1), Weight: 1}
	}
	r, err := New("emcache", "", servers)
	if err != nil {
		t.Fatal(err)
	}
	key := []byte("tie:key")
	ties := 0
	seen := map[uint32]bool{}
	for i := range servers {
		s := r.hash(append(append([]byte(nil), key...), r.nodes[i]...))
		if seen[s] {
			ties++
		}
		seen[s] = true
	}
	if ties == 0 {
		t.Fatal("no equal scores among 40 servers: pick another key")
	}
	if n := testing.AllocsPerRun(100, func() { r.locate(key) }); n != 0 {
		t.Errorf("%v allocations per lookup", n)
	}
}

// tests/vectors/extra/*-dead-*.json: recorded from the real clients with the listed servers
// refusing connections; IndexAlive must pick the server the client picked and give up
// (null) exactly where it gave up.
func TestDeadServersAsTheClientsFailOver(t *testing.T) {
	files, _ := filepath.Glob("../tests/vectors/extra/*.json")
	checked := 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var kind struct{ Kind string }
		if json.Unmarshal(raw, &kind) != nil || kind.Kind != "dead" {
			continue
		}
		var v struct {
			Kind, Profile string
			Hash          *string
			Servers       vectorServers
			Dead          []string
			Keys          []string
			Expect        []*string
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		servers := v.Servers.servers()
		hash := ""
		if v.Hash != nil {
			hash = *v.Hash
		}
		r, err := New(v.Profile, hash, servers)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var down []int
		for _, d := range v.Dead {
			for i, s := range servers {
				if s.Label == d {
					down = append(down, i)
				}
			}
		}
		bad := 0
		for i, k := range v.Keys {
			got := "null"
			if x, err := r.IndexAlive(k, down); err == nil {
				got = servers[x].Label
			}
			want := "null"
			if v.Expect[i] != nil {
				want = *v.Expect[i]
			}
			if got != want {
				if bad < 3 {
					t.Errorf("%s: key %q: %s, want %s", filepath.Base(f), k, got, want)
				}
				bad++
			}
		}
		checked++
	}
	if checked < 12 {
		t.Fatalf("%d dead-server files, want at least 12", checked)
	}
}
