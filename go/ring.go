// Package ketama places memcached keys on servers exactly as each real client does, one
// "profile" per client (libketama, libmemcached, php-memcached, twemproxy, spymemcached,
// xmemcached, pecl memcache, uhashring, hashring, gomemcache, groupcache, dalli, nginx,
// folsom, memjs, whalin, mcrouter, pymemcache, Django, emcache, python-memcached, the
// memcached proxy, ...). It is a pure Go port of the ketama core: the
// profiles come from the embedded spec/profiles.json, and every profile is checked against
// the answers recorded from the real clients (`ketama conformance`).
//
// A Ring is immutable once built and safe for concurrent readers.
package ketama

import (
	"crypto/md5"
	"encoding/binary"
	"sort"
)

// maxPoints is the most points one continuum may hold (2^23).
const maxPoints = 1 << 23

// peclStep and peclBuckets are pecl memcache's bucket table: 1024 buckets 0xFFFFFFFF/1024 apart.
const (
	peclStep    uint32 = 0xFFFFFFFF / 1024
	peclBuckets uint32 = 1024
	maglevSize  uint32 = 65537
)

// Ring is a built ring of one profile: lookups only (build a new Ring for another fleet).
type Ring struct {
	opts          Options
	prof          *profile
	hashName      string
	hash          hashFunc
	hash64        hash64Func // the key hash's 64 bits (key_hash64 points, mix_rendezvous)
	md5Key        bool       // the key hash is ketama md5 (inlined fast path)
	emptyRejected bool
	keys          keyRules
	servers       []parsed
	labelOf       []string // servers' labels, compact for Get
	nodes         []string
	seeds         []uint64

	// A continuum (ring and pecl_buckets placements): positions ascending, the tie winner
	// first among equal positions.
	values []uint32
	window []uint32 // values and searchWindow MaxUint32 after them
	owners []uint32
	index  []uint32 // index[b] = first position >= b << shift (len(index) = 2^bits + 1)
	shift  uint
	wide   []wide128         // md5_wide: the full 128-bit positions
	wide64 []uint64          // key_hash64: the 64-bit positions, flipped into the bound's order
	runs   map[uint32]uint32 // sorted_list ties: first position of a run -> owner
	pecl   []uint32

	// Slot placements (modula, java_abs_modulo): server indexes in order, cumulative weights.
	ordered    []uint32
	cumulative []uint64
	furcW      []float64
	maglev     []uint32
	mixed      []uint64 // mix_rendezvous: each node string's 64-bit hash
	scaled     scaledPoints
}

type wide128 struct{ hi, lo uint64 }

func (a wide128) less(b wide128) bool { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo) }

// New builds the ring of profile (a name or alias, see Profiles) with key hash hash ("" =
// the profile's default; our names or the clients' own, see Hashes) over servers in the
// order the client is given them. Errors: ErrUnknownProfile, ErrUnknownHash,
// ErrAmbiguousHash, ErrTooManyPoints, or a *ServerError wrapping ErrBadLabel, ErrBadWeight,
// ErrDuplicateServer or ErrUnsupported.
func New(profile, hash string, servers []Server) (*Ring, error) {
	p, err := profileByName(profile)
	if err != nil {
		return nil, err
	}
	hname := p.defaultHash
	if hash != "" {
		if hname, err = hashFromName(hash, p); err != nil {
			return nil, err
		}
	}
	r := &Ring{prof: p, hashName: hname, hash: hashFuncs[hname], hash64: hash64Of(hname), md5Key: hname == "md5" || hname == "election"}
	for _, h := range p.emptyRejected {
		if h == hname {
			r.emptyRejected = true
		}
	}
	r.servers = make([]parsed, len(servers))
	for i, s := range servers {
		ps, err := parseServer(s)
		if err != nil {
			return nil, &ServerError{Index: i, Label: s.Label, Err: err.(*Error)}
		}
		r.servers[i] = ps
	}
	r.labelOf = make([]string, len(servers))
	for i, s := range servers {
		r.labelOf[i] = s.Label
	}
	seen := make(map[string]struct{}, len(servers))
	r.nodes = make([]string, len(servers))
	r.seeds = make([]uint64, len(servers))
	for i := range r.servers {
		s := &r.servers[i]
		fail := func(e *Error) error { return &ServerError{Index: i, Label: s.Label, Err: e} }
		if s.Weight == 0 && p.zero == zeroReject {
			return nil, fail(ErrBadWeight)
		}
		ep := s.endpoint()
		if _, dup := seen[ep]; dup {
			return nil, fail(ErrDuplicateServer)
		}
		seen[ep] = struct{}{}
		node, err := nodeString(p.node, s, p.names, i)
		if err != nil {
			return nil, fail(err.(*Error))
		}
		if p.key == keyLatin1 {
			// The client hashes the node string as it encodes keys: one byte per character.
			b, ok := appendLatin1(nil, []byte(node))
			if !ok {
				return nil, fail(ErrUnsupported)
			}
			node = string(b)
		}
		r.nodes[i] = node
		d := md5.Sum([]byte(node))
		r.seeds[i] = uint64(binary.LittleEndian.Uint32(d[0:4]))<<32 | uint64(binary.LittleEndian.Uint32(d[4:8]))
	}
	if err := r.layOut(); err != nil {
		return nil, err
	}
	r.settleKeys()
	return r, nil
}

// layOut builds what the profile's layout searches, from the servers and their node strings.
func (r *Ring) layOut() error {
	p := r.prof
	ranks := r.ranks()
	switch p.layout {
	case layoutSorted, layoutWide, layoutWide64, layoutTieRuns, layoutBuckets:
		return r.buildContinuum(ranks)
	case layoutSlots:
		r.ordered = make([]uint32, len(r.servers))
		for i := range r.ordered {
			r.ordered[i] = uint32(i)
		}
		sort.SliceStable(r.ordered, func(a, b int) bool { return ranks[r.ordered[a]] < ranks[r.ordered[b]] })
		if p.weighted {
			var sum uint64
			for _, i := range r.ordered {
				sum += uint64(r.servers[i].Weight)
				r.cumulative = append(r.cumulative, sum)
			}
		}
	case layoutFurc:
		if p.weighted {
			var max uint32
			for _, s := range r.servers {
				if s.Weight > max {
					max = s.Weight
				}
			}
			r.furcW = make([]float64, len(r.servers))
			for i, s := range r.servers {
				if max != 0 {
					r.furcW[i] = float64(s.Weight) / float64(max)
				}
			}
		}
	case layoutMaglev:
		r.maglev = maglevTable(r.seeds)
	case layoutMixed:
		r.mixed = make([]uint64, len(r.nodes))
		for i, node := range r.nodes {
			r.mixed[i] = r.hash64(bytesOf(node))
		}
	case layoutScaled:
		r.scaled = newScaledPoints(r.servers, ranks)
	}
	return nil
}

// locate is the server index of a key.
func (r *Ring) locate(key []byte) (int, error) {
	if len(r.servers) == 0 {
		return 0, ErrEmptyRing
	}
	k, buf, err := r.prepare(key)
	if err != nil {
		return 0, err
	}
	if r.prof.singleShortcut && len(r.servers) == 1 {
		release(buf)
		return 0, nil
	}
	i, err := r.place(k)
	release(buf)
	return i, err
}

// Index returns the index (in the order given to New) of the server key goes to.
// Errors: ErrEmptyRing, ErrKeyRejected, ErrNoServer, ErrUnsupported.
func (r *Ring) Index(key string) (int, error) { return r.locate(bytesOf(key)) }

// Get returns the label of the server key goes to.
func (r *Ring) Get(key string) (string, error) {
	i, err := r.locate(bytesOf(key))
	if err != nil {
		return "", err
	}
	return r.labelOf[i], nil
}

// GetBytes is Get for a key given as bytes (keys may hold any byte).
func (r *Ring) GetBytes(key []byte) (string, error) {
	i, err := r.locate(key)
	if err != nil {
		return "", err
	}
	return r.servers[i].Label, nil
}

// KeyHash is the key's hash as this ring's client computes it: after its key refusals
// (ErrKeyRejected) and rewriting. It needs no servers.
func (r *Ring) KeyHash(key []byte) (uint32, error) {
	k, buf, err := r.prepare(key)
	if err != nil {
		return 0, err
	}
	defer release(buf)
	return r.keyHash(k), nil
}

// GetN returns up to n distinct servers for key, primary first, in the order the client's
// structure yields them (ring order, the following servers for modulo, descending score
// for rendezvous); fewer when the ring has fewer servers.
func (r *Ring) GetN(key string, n int) ([]string, error) {
	idx, err := r.locateN(bytesOf(key), n)
	return r.labels(idx), err
}

// Failover returns the client's own failover sequence for key, n entries, primary first:
// spymemcached's and xmemcached's rehash walks (servers may repeat; xmemcached stops after
// as many rehashes as servers), the rehashes of dalli, pecl memcache, python-memcached,
// Cache::Memcached and Enyim's ketama locator (each within its retry limit), whalin's search
// for untried servers, the primary alone for the clients that keep their pick (emcache,
// Predis, phpredis, redis-rb, Jedis, ...), for every other client the next distinct servers
// (GetN).
func (r *Ring) Failover(key string, n int) ([]string, error) {
	idx, err := r.failover(bytesOf(key), n)
	return r.labels(idx), err
}

// FailoverBytes is Failover for a key given as bytes.
func (r *Ring) FailoverBytes(key []byte, n int) ([]string, error) {
	idx, err := r.failover(key, n)
	return r.labels(idx), err
}

func (r *Ring) labels(idx []int) []string {
	if idx == nil {
		return nil
	}
	out := make([]string, len(idx))
	for i, x := range idx {
		out[i] = r.servers[x].Label
	}
	return out
}

// Point is one continuum position and the label of the server owning it.
type Point struct {
	Position uint32
	Label    string
}

// Points returns the continuum in ascending order (nil for placements without one: modulo,
// jump, furc, rendezvous, maglev); among equal positions the tie winner first (for
// xmemcached's sorted-list ties, the server listed first: Get applies the rule). On
// uhashring's 128-bit ring, the top 32 bits.
func (r *Ring) Points() []Point {
	if r.values == nil {
		return nil
	}
	out := make([]Point, len(r.values))
	for i, v := range r.values {
		out[i] = Point{v, r.labelOf[r.owners[i]]}
	}
	return out
}

// Profile is the ring's profile name.
func (r *Ring) Profile() string { return r.prof.name }

// Hash is the canonical name of the ring's key hash.
func (r *Ring) Hash() string { return r.hashName }

// Servers returns the servers in the order given to New.
func (r *Ring) Servers() []Server {
	out := make([]Server, len(r.servers))
	for i, s := range r.servers {
		out[i] = s.Server
	}
	return out
}

// Len is the number of servers.
func (r *Ring) Len() int { return len(r.servers) }
