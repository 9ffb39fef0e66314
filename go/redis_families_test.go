package ketama

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// The clients' tags side by side (recorded by each client's oracle, as core's tag tests
// list them): Predis, phpredis, redis-rb, redis-shard, Jedis with its default pattern.
func TestTagRulesAsTheirClientsApplyThem(t *testing.T) {
	rules := []tagRule{ruleFirstNonEmpty, ruleFirstUpToNul, ruleLineStart, ruleGreedyLast, ruleLazyFind}
	for _, c := range []struct {
		key  string
		want [5]string
	}{
		{"user:{42}:profile", [5]string{"42", "42", "user:{42}:profile", "42", "42"}},
		{"{}", [5]string{"{}", "", "{}", "", "{}"}},
		{"a{}b", [5]string{"a{}b", "", "a{}b", "", "a{}b"}},
		{"{}{42}", [5]string{"{}{42}", "", "}{42", "42", "}{42"}},
		{"{a}{b}", [5]string{"a", "a", "a", "b", "a"}},
		{"pre{tag}mid{other}post", [5]string{"tag", "tag", "pre{tag}mid{other}post", "other", "tag"}},
		{"}42{", [5]string{"}42{", "}42{", "}42{", "}42{", "}42{"}},
		{"a{b", [5]string{"a{b", "a{b", "a{b", "a{b", "a{b"}},
		{"{a{b}", [5]string{"a{b", "a{b", "a{b", "b", "a{b"}},
		{"{{x}}", [5]string{"{x", "{x", "{x", "x}", "{x"}},
		{"{x}}", [5]string{"x", "x", "x", "x}", "x"}},
		// Ruby's ^ starts every line, its . stops at \n; Python's match stays on the first
		// line; Java's . stops at \r and U+2028 too, and the next { may still match.
		{"x\n{t}y", [5]string{"t", "t", "t", "x\n{t}y", "t"}},
		{"{a\nb}", [5]string{"a\nb", "a\nb", "{a\nb}", "{a\nb}", "{a\nb}"}},
		{"{a}\n{b}", [5]string{"a", "a", "a", "a", "a"}},
		{"{a\rb}", [5]string{"a\rb", "a\rb", "a\rb", "a\rb", "{a\rb}"}},
		{"{a\u2028b}{c}", [5]string{"a\u2028b", "a\u2028b", "a\u2028b", "c", "c"}},
		{"{a\u0085b}", [5]string{"a\u0085b", "a\u0085b", "a\u0085b", "a\u0085b", "{a\u0085b}"}},
		// phpredis reads the key as a C string.
		{"a\x00{b}", [5]string{"b", "a\x00{b}", "a\x00{b}", "b", "b"}},
		{"{a\x00}", [5]string{"a\x00", "{a\x00}", "a\x00", "a\x00", "a\x00"}},
		{"{a}\x00", [5]string{"a", "a", "a", "a", "a"}},
	} {
		for i, rule := range rules {
			if got := string(rule.tag([]byte(c.key), '{', '}')); got != c.want[i] {
				t.Errorf("%s of %q: %q, want %q", tagRuleNames[rule], c.key, got, c.want[i])
			}
		}
	}
	// twemproxy's hash_tag with other delimiters, and a Jedis pattern.
	for _, c := range []struct {
		rule          tagRule
		key, tag, out string
	}{
		{ruleFirstNonEmpty, "{user1}:x", "{}", "user1"},
		{ruleFirstNonEmpty, "}a{b}", "{}", "b"},
		{ruleFirstNonEmpty, "a:b:c", "::", "b"},
		{ruleFirstNonEmpty, "::x", "::", "::x"},
		{ruleLazyFind, "a[b]c", "[]", "b"},
		{ruleLazyFind, "a::c", "::", "a::c"},
	} {
		if got := string(c.rule.tag([]byte(c.key), c.tag[0], c.tag[1])); got != c.out {
			t.Errorf("%s of %q with %s: %q, want %q", tagRuleNames[c.rule], c.key, c.tag, got, c.out)
		}
	}
}

// redis-shard hashes keys and node names as latin-1: one byte per character, applied to
// what the tag step left; a key it cannot encode is refused, a name it cannot encode is
// Unsupported.
func TestLatin1KeysAndNames(t *testing.T) {
	for text, want := range map[string]string{"é-ÿ": "\xe9-\xff", "plain": "plain", "ключ": "", "\xff": "", "€": ""} {
		got, ok := appendLatin1(nil, []byte(text))
		if ok != (want != "") || (ok && string(got) != want) {
			t.Errorf("latin1(%q) = %q %v, want %q", text, got, ok, want)
		}
	}
	servers := []Server{{Label: "10.0.0.1:6379", Weight: 1, Name: "último"}, {Label: "10.0.0.2:6379", Weight: 1}}
	r, err := New("redis-shard", "", servers)
	if err != nil {
		t.Fatal(err)
	}
	if r.nodes[0] != "\xfaltimo" {
		t.Errorf("node %q", r.nodes[0])
	}
	for _, c := range []struct{ key, as string }{{"ключ:{42}", "42"}, {"café", "caf\xe9"}} {
		got, _ := r.KeyHash([]byte(c.key))
		if want := hashFuncs["crc32a"]([]byte(c.as)); got != want {
			t.Errorf("%q hashes %d, want that of %q (%d)", c.key, got, c.as, want)
		}
	}
	if _, err := r.Get("ключ"); !errors.Is(err, ErrKeyRejected) {
		t.Errorf("a key above U+00FF: %v", err)
	}
	servers[1].Name = "€"
	var se *ServerError
	if _, err := New("redis-shard", "", servers); !errors.Is(err, ErrUnsupported) || !errors.As(err, &se) || se.Index != 1 {
		t.Errorf("a name above U+00FF: %v", err)
	}
}

// Reference values of the hashes the Redis and .NET profiles added.
func TestNewHashReferenceValues(t *testing.T) {
	if got := xxh64(nil, 0); got != 0xEF46DB3751D8E999 {
		t.Errorf("xxh64('') = %#x", got)
	}
	if got := xxh64([]byte("a"), 0); got != 0xD24EC4F1A98C6E5B {
		t.Errorf("xxh64('a') = %#x", got)
	}
	// SMHasher's verification value of MurmurHash64A: the keys [0], [0,1], ..., [0..254]
	// hashed with seed 256 - length, the little-endian hashes hashed with seed 0.
	key := make([]byte, 256)
	for i := range key {
		key[i] = byte(i)
	}
	var all []byte
	for n := 0; n < 256; n++ {
		h := murmur64a(key[:n], uint32(256-n))
		for b := 0; b < 8; b++ {
			all = append(all, byte(h>>(8*b)))
		}
	}
	if got := uint32(murmur64a(all, 0)); got != 0x1F0D3804 {
		t.Errorf("MurmurHash64A verification %#x", got)
	}
	for name, want := range map[string]uint32{
		"crc32_raw": ^uint32(0xCBF43926), "xxh64": 0xEF46DB37, "fnv1a_32_zero": 0,
	} {
		k := []byte("123456789")
		if name != "crc32_raw" {
			k = nil
		}
		if got, _ := HashKey(name, k); got != want {
			t.Errorf("%s(%q) = %#x, want %#x", name, k, got, want)
		}
	}
	if got, _ := HashKey("MURMUR_HASH", []byte("key")); got != uint32(murmur64a([]byte("key"), jedisSeed)>>32) {
		t.Errorf("murmur64a as a 32-bit hash: %#x, want the high 32 bits", got)
	}
}

func TestRedisNodeForms(t *testing.T) {
	for _, c := range []struct {
		form              nodeForm
		label, name, want string
		weight            uint32
		names             bool
		place             int
		wantErr           bool
	}{
		{form: nodeRedisUrlDb, label: "10.0.0.1:6380", want: "redis://10.0.0.1:6380/0"},
		{form: nodeRedisUrlDb, label: "[::1]:6379", want: "redis://::1:6379/0"},
		{form: nodeRedisUrlDb, label: "cache", want: "redis://cache:11211/0"},
		{form: nodeRedisUrl, label: "[2001:db8::1]:6379", want: "redis://[2001:db8::1]:6379"},
		{form: nodeRedisUrl, label: "10.0.0.1:6379", name: "n", names: true, want: "n"},
		{form: nodeShardPlace, label: "10.0.0.1:6379", name: "n", names: true, place: 7, want: "SHARD-7"},
		{form: nodeNameStarWeight, label: "10.0.0.1:6379", weight: 3, want: "10.0.0.1:6379*3"},
		{form: nodeNameStarWeight, label: "10.0.0.1:6379", name: "a", names: true, weight: 0, want: "a*0"},
		{form: nodeHostNulPort, label: "[::1]", want: "::1\x0011211"},
		{form: nodeIpEndPoint, label: "10.0.0.1", want: "10.0.0.1:11211"},
		{form: nodeIpEndPoint, label: "[2001:DB8:0:0::1]:11212", want: "[2001:db8::1]:11212"},
		{form: nodeIpEndPoint, label: "[::ffff:10.0.0.1]:1", want: "[::ffff:10.0.0.1]:1"},
		{form: nodeIpEndPoint, label: "cache:11211", wantErr: true},
		{form: nodeIpEndPoint, label: "cache:11211", name: "n", names: true, want: "n"},
	} {
		s, err := parseServer(Server{Label: c.label, Weight: c.weight, Name: c.name})
		if err != nil {
			t.Fatal(err)
		}
		got, err := nodeString(c.form, &s, c.names, c.place)
		if (err != nil) != c.wantErr || got != c.want {
			t.Errorf("%s %s: %q %v, want %q", nodeFormNames[c.form], c.label, got, err, c.want)
		}
	}
}

// The count rules of the Redis and Finagle profiles, at the values where their clients'
// arithmetic shows.
func TestNewCountRules(t *testing.T) {
	// PHP 8.2's round(): 61 / 1792 * 7 * 128 = 30.499999999999996 pre-rounds to 30.5 and
	// gives 31 (a plain round half up gives 30).
	if got := digests(formulaPredis, 61, 1792, 7); got != 31 {
		t.Errorf("predis 61/1792 of 7: %d strings, want 31", got)
	}
	if got := phpRound(2.5); got != 3 {
		t.Errorf("round(2.5) = %v", got)
	}
	if got := digests(formulaPredisKetama, 1, 3, 3); got != 40 {
		t.Errorf("predis-ketama 1/3 of 3: %d digests, want 40", got)
	}
	// Finagle: the total as a Java int wraps; the small addend rescues 1/3 * 3 * 40.
	if got := digests(formulaFinagle, 1, 3, 3); got != 40 {
		t.Errorf("finagle 1/3 of 3: %d digests, want 40", got)
	}
	if got := digests(formulaFinagle, 1, 1<<32, 2); got != 0 {
		t.Errorf("finagle with a total wrapping to 0: %d", got)
	}
	// Jedis 2.x/3.x: 160 * weight as a Java int.
	jedis, _ := profileByName("jedis")
	for w, want := range map[uint32]uint32{1: 160, 13421773: 0, 26843546: 64, 0: 0} {
		if got := stringsFor(jedis, w, 0, 1); got != want {
			t.Errorf("jedis weight %d: %d strings, want %d", w, got, want)
		}
	}
	// Predis counts weight 0 as 100.
	r, err := New("predis", "", []Server{{Label: "10.0.0.1:6379", Weight: 0}, {Label: "10.0.0.2:6379", Weight: 100}})
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, pt := range r.Points() {
		per[pt.Label]++
	}
	if per["10.0.0.1:6379"] != 128 || per["10.0.0.2:6379"] != 128 {
		t.Errorf("predis, weights 0 and 100: %v points, want 128 each", per)
	}
}

func TestProportionalRanges(t *testing.T) {
	r, err := New("phpredis-array", "", []Server{{Label: "10.0.0.1:6379"}, {Label: "10.0.0.2:6379"}, {Label: "10.0.0.3:6379"}})
	if err != nil {
		t.Fatal(err)
	}
	for h, want := range map[uint32]int{0: 0, 0x55555554: 0, 0x55555555: 1, 0xFFFFFFFE: 2, math.MaxUint32: -1} {
		got, err := r.slotOfHash(h)
		if (want < 0) != errors.Is(err, ErrNoServer) || (want >= 0 && got != want) {
			t.Errorf("hash %#x: %d %v, want %d", h, got, err, want)
		}
	}
}

// Each server's share of the scaled points is its share of the weight, as Cache::Memcached's
// buckets give it: bucket b goes to the server whose cumulative weight first exceeds b.
func TestScaledPointsLandAsCacheMemcachedBuckets(t *testing.T) {
	for _, weights := range [][]uint32{{1, 1}, {1, 2, 3}, {600, 300, 200, 350, 1000}, {1, 0, 2}} {
		servers := make([]Server, len(weights))
		for i, w := range weights {
			servers[i] = Server{Label: fmt.Sprintf("10.0.0.%d:11211", i+1), Weight: w}
		}
		r, err := New("cache-memcached-fast-compat", "", servers)
		if err != nil {
			t.Fatal(err)
		}
		var total uint32
		for _, w := range weights {
			total += w
		}
		for h := uint32(0); h < total; h++ {
			want, sum := 0, uint32(0)
			for i, w := range weights {
				if sum += w; h < sum {
					want = i
					break
				}
			}
			if got, _ := r.scaled.locate(h); got != want {
				t.Errorf("%v bucket %d: server %d, want %d", weights, h, got, want)
			}
		}
	}
	r, _ := New("cache-memcached-fast-compat", "", []Server{{Label: "10.0.0.1:11211"}, {Label: "10.0.0.2:11211"}})
	if _, err := r.Get("k"); !errors.Is(err, ErrNoServer) {
		t.Errorf("no weight: %v", err)
	}
}

// The bounds of redis-shard (no wrap) and Enyim (below the first point: the last point).
func TestClampAndBelowLastBounds(t *testing.T) {
	servers := []Server{{Label: "10.0.0.1:6379", Weight: 1}, {Label: "10.0.0.2:6379", Weight: 1}}
	for _, c := range []struct {
		profile string
		at      func(v []uint32, h uint32) int // the expected continuum index
	}{
		{"redis-shard", func(v []uint32, h uint32) int {
			if p := upperBound(v, h); p < len(v) {
				return p
			}
			return len(v) - 1
		}},
		{"enyim", func(v []uint32, h uint32) int {
			p := lowerBound(v, h)
			switch {
			case p == 0 && v[0] != h:
				return len(v) - 1
			case p == len(v):
				return 0
			}
			return p
		}},
	} {
		r, err := New(c.profile, "", servers)
		if err != nil {
			t.Fatal(err)
		}
		v := r.values
		for _, h := range []uint32{0, v[0] - 1, v[0], v[0] + 1, v[len(v)/2], v[len(v)-1] - 1, v[len(v)-1], v[len(v)-1] + 1, math.MaxUint32} {
			got, err := r.position(h)
			if want := c.at(v, h); err != nil || r.owners[got] != r.owners[want] {
				t.Errorf("%s hash %#x: position %d %v, want %d", c.profile, h, got, err, want)
			}
		}
	}
}

// The lookups of the Redis, Jedis, Finagle, Enyim and Perl profiles allocate nothing (tagged
// and latin-1 keys included).
func TestRedisFamiliesLookupsAllocateNothing(t *testing.T) {
	servers := []Server{{Label: "10.0.0.1:6379", Weight: 1}, {Label: "10.0.0.2:6379", Weight: 2}, {Label: "10.0.0.3:6380", Weight: 1}}
	for _, p := range []string{"predis", "predis-ketama", "phpredis-array", "phpredis-array-consistent", "redis-rb",
		"redis-rb-5", "jedis", "jedis-named", "jedis-2-named", "jedis-4", "go-redis", "go-redis-v7", "redis-shard",
		"finagle", "enyim", "enyim-ketama", "cache-memcached-fast", "cache-memcached-fast-compat", "cache-memcached"} {
		r, err := New(p, "", servers)
		if err != nil {
			t.Fatal(p, err)
		}
		if prof, _ := profileByName(p); prof.optHashTag {
			r, _ = r.WithOptions(Options{HashTag: "{}"})
		}
		for _, key := range [][]byte{[]byte("user:1234:profile"), []byte("{user:1234}:name"), []byte("caf\xc3\xa9:{1}"), []byte("caf\xc3\xa9")} {
			if _, err := r.locate(key); err != nil {
				t.Fatalf("%s %q: %v", p, key, err)
			}
			if n := testing.AllocsPerRun(200, func() { _, _ = r.locate(key) }); n != 0 {
				t.Errorf("%s %q: %v allocations per lookup", p, key, n)
			}
		}
	}
}
