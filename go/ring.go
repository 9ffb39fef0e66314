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
	"strconv"
	"unicode/utf16"
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
	prof          *profile
	hashName      string
	hash          hashFunc
	md5Key        bool // the key hash is ketama md5 (inlined fast path)
	emptyRejected bool
	servers       []parsed
	labelOf       []string // servers' labels, compact for Get
	nodes         []string
	seeds         []uint64

	// A continuum (ring and pecl_buckets placements): positions ascending, the tie winner
	// first among equal positions.
	values []uint32
	owners []uint32
	index  []uint32 // index[b] = first position >= b << shift (len(index) = 2^bits + 1)
	shift  uint
	wide   []wide128         // md5_wide: the full 128-bit positions
	runs   map[uint32]uint32 // sorted_list ties: first position of a run -> owner
	pecl   []uint32

	// Slot placements (modula, java_abs_modulo): server indexes in order, cumulative weights.
	ordered    []uint32
	cumulative []uint64
	furcW      []float64
	maglev     []uint32
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
	r := &Ring{prof: p, hashName: hname, hash: hashFuncs[hname], md5Key: hname == "md5" || hname == "election"}
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
		node, err := nodeString(p.node, s, p.names)
		if err != nil {
			return nil, fail(err.(*Error))
		}
		r.nodes[i] = node
		d := md5.Sum([]byte(node))
		r.seeds[i] = uint64(binary.LittleEndian.Uint32(d[0:4]))<<32 | uint64(binary.LittleEndian.Uint32(d[4:8]))
	}
	ranks := r.ranks()
	switch p.place {
	case placeRing, placePeclBuckets:
		if err := r.buildContinuum(ranks); err != nil {
			return nil, err
		}
	case placeModula, placeJavaAbsModulo:
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
	case placeFurc:
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
	case placeMaglev:
		r.maglev = maglevTable(r.seeds)
	}
	return r, nil
}

// ranks is each server's place in the client's server order.
func (r *Ring) ranks() []uint32 {
	ranks := make([]uint32, len(r.servers))
	idx := make([]int, len(r.servers))
	for i := range idx {
		idx[i] = i
	}
	if r.prof.order == orderNodeLengthThenBytes {
		sort.SliceStable(idx, func(a, b int) bool {
			x, y := r.nodes[idx[a]], r.nodes[idx[b]]
			if len(x) != len(y) {
				return len(x) < len(y)
			}
			return x < y
		})
	}
	for rank, i := range idx {
		ranks[i] = uint32(rank)
	}
	return ranks
}

type point struct {
	value uint32
	owner uint32
	wide  wide128
}

// effectiveWeight applies zero_weight "as_one".
func (r *Ring) effectiveWeight(w uint32) uint32 {
	if w == 0 && r.prof.zero == zeroAsOne {
		return 1
	}
	return w
}

func (r *Ring) buildContinuum(ranks []uint32) error {
	p := r.prof
	var total uint64
	for _, s := range r.servers {
		total += uint64(r.effectiveWeight(s.Weight))
	}
	perString := uint64(1)
	if p.points == pointsMd5Words {
		perString = uint64(p.per)
	}
	targets := make([]uint32, len(r.servers))
	var count uint64
	for i, s := range r.servers {
		targets[i] = stringsFor(p, r.effectiveWeight(s.Weight), total, len(r.servers))
		count += uint64(targets[i]) * perString
	}
	if count > maxPoints {
		return ErrTooManyPoints
	}
	pts := make([]point, 0, count)
	for i := range r.servers {
		pts = r.generate(pts, uint32(i), targets[i])
	}
	later := p.ties == tiesLater
	sort.Slice(pts, func(a, b int) bool {
		x, y := &pts[a], &pts[b]
		if x.value != y.value {
			return x.value < y.value
		}
		if x.wide != y.wide {
			return x.wide.less(y.wide)
		}
		if later {
			return ranks[x.owner] > ranks[y.owner]
		}
		return ranks[x.owner] < ranks[y.owner]
	})
	r.values = make([]uint32, len(pts))
	r.owners = make([]uint32, len(pts))
	wideRing := p.points == pointsMd5Wide && p.place == placeRing
	if wideRing {
		r.wide = make([]wide128, len(pts))
	}
	for i, pt := range pts {
		r.values[i], r.owners[i] = pt.value, pt.owner
		if wideRing {
			r.wide[i] = pt.wide
		}
	}
	r.buildIndex()
	if p.place == placePeclBuckets {
		if len(r.values) > 0 {
			r.pecl = make([]uint32, peclBuckets)
			for b := uint32(0); b < peclBuckets; b++ {
				r.pecl[b] = r.owners[lowerBound(r.values, b*peclStep)%len(r.values)]
			}
		}
	} else if p.ties == tiesSortedList && !wideRing {
		r.tieRuns()
	}
	return nil
}

// tieRuns: for every run of equal positions, the owner is list[position % len] of the
// colliding servers sorted by node string in UTF-16 order (xmemcached).
func (r *Ring) tieRuns() {
	v := r.values
	for i := 0; i < len(v); {
		j := i + 1
		for j < len(v) && v[j] == v[i] {
			j++
		}
		if j-i > 1 {
			members := append([]uint32(nil), r.owners[i:j]...)
			sort.SliceStable(members, func(a, b int) bool {
				return utf16Less(r.nodes[members[a]], r.nodes[members[b]])
			})
			if r.runs == nil {
				r.runs = map[uint32]uint32{}
			}
			r.runs[uint32(i)] = members[int(v[i])%len(members)]
		}
		i = j
	}
}

func utf16Less(a, b string) bool {
	x, y := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return len(x) < len(y)
}

// spell appends point string i of node to buf.
func spell(buf []byte, form stringForm, node string, i uint32) []byte {
	switch form {
	case strDash:
		buf = append(append(buf, node...), '-')
		return strconv.AppendUint(buf, uint64(i), 10)
	case strPrefix:
		return append(strconv.AppendUint(buf, uint64(i), 10), node...)
	case strConcat:
		return strconv.AppendUint(append(buf, node...), uint64(i), 10)
	case strColon:
		buf = append(append(buf, node...), ':')
		return strconv.AppendUint(buf, uint64(i), 10)
	default:
		return append(buf, node...)
	}
}

// generate appends the points of server owner's first n strings.
func (r *Ring) generate(pts []point, owner uint32, n uint32) []point {
	p := r.prof
	node := r.nodes[owner]
	var buf []byte
	switch p.points {
	case pointsCrc32Chain:
		var prev uint32
		for i := uint32(0); i < n; i++ {
			buf = append(append(buf[:0], node...), 0, 0, 0, 0)
			binary.LittleEndian.PutUint32(buf[len(node):], prev)
			prev = hashFuncs["crc32a"](buf)
			pts = append(pts, point{value: prev, owner: owner})
		}
		return pts
	case pointsMurmur3Chain:
		var flip uint32
		if p.place == placeRing && p.bound == boundLowerSigned {
			flip = 0x80000000
		}
		v := murmur3x86([]byte(node), 0)
		var le [4]byte
		for i := uint32(0); i < n; i++ {
			if i > 0 {
				binary.LittleEndian.PutUint32(le[:], v)
				v = murmur3x86(le[:], 0)
			}
			pts = append(pts, point{value: v ^ flip, owner: owner})
		}
		return pts
	}
	words := 0 // md5 words per string; -1 = the whole digest
	strs := n
	switch {
	case p.points == pointsMd5Words:
		words = p.per
	case p.points == pointsMd5Wide:
		words = -1
	case p.points == pointsJavaKetama && r.hashName == "md5":
		words, strs = 4, (n+3)/4
	}
	for i := uint32(0); i < strs; i++ {
		buf = spell(buf[:0], p.strings, node, i)
		switch {
		case words > 0:
			d := md5.Sum(buf)
			for g := 0; g < words; g++ {
				pts = append(pts, point{value: binary.LittleEndian.Uint32(d[4*(g&3):]), owner: owner})
			}
		case words < 0:
			d := md5.Sum(buf)
			w := wide128{binary.BigEndian.Uint64(d[:8]), binary.BigEndian.Uint64(d[8:])}
			pts = append(pts, point{value: uint32(w.hi >> 32), owner: owner, wide: w})
		case p.points == pointsSha1Word:
			pts = append(pts, point{value: sha1Word(buf), owner: owner})
		case p.points == pointsXxh3Word:
			pts = append(pts, point{value: uint32(xxh3(buf)), owner: owner})
		default:
			pts = append(pts, point{value: r.hash(buf), owner: owner})
		}
	}
	return pts
}

// buildIndex makes the bucket index over the top bits of the positions: about two points
// per bucket, so a search reads one index entry and a few neighbouring positions.
func (r *Ring) buildIndex() {
	n := len(r.values)
	if n == 0 {
		return
	}
	b := uint(1)
	for b < 20 && (1<<b) < n/2 {
		b++
	}
	r.shift = 32 - b
	r.index = make([]uint32, (1<<b)+1)
	p := 0
	for i := range r.index {
		lo := uint64(i) << r.shift
		for p < n && uint64(r.values[p]) < lo {
			p++
		}
		r.index[i] = uint32(p)
	}
}

// lower is lowerBound(r.values, h) through the bucket index.
func (r *Ring) lower(h uint32) int {
	b := h >> r.shift
	lo, hi := int(r.index[b]), int(r.index[b+1])
	v := r.values
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if v[m] < h {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// upper is upperBound(r.values, h) through the bucket index.
func (r *Ring) upper(h uint32) int {
	b := h >> r.shift
	lo, hi := int(r.index[b]), int(r.index[b+1])
	v := r.values
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if v[m] <= h {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// lowerBound is the first index whose value is >= h (len(v) when none).
func lowerBound(v []uint32, h uint32) int {
	lo, hi := 0, len(v)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if v[m] < h {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// upperBound is the first index whose value is > h.
func upperBound(v []uint32, h uint32) int {
	lo, hi := 0, len(v)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if v[m] <= h {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func (r *Ring) firstOfRun(p int) int {
	for p > 0 && r.values[p-1] == r.values[p] {
		p--
	}
	return p
}

// position is the continuum index a 32-bit key hash lands on, by the profile's bound.
func (r *Ring) position(h uint32) (int, error) {
	v := r.values
	n := len(v)
	if n == 0 {
		return 0, ErrNoServer
	}
	wrap := func(p int) int {
		if p == n {
			return 0
		}
		return p
	}
	switch r.prof.bound {
	case boundLowerSigned:
		return wrap(r.lower(h ^ 0x80000000)), nil
	case boundUpper:
		return wrap(r.upper(h)), nil
	case boundLowerZeroLast:
		if h == 0 {
			return r.firstOfRun(n - 1), nil
		}
		return wrap(r.lower(h)), nil
	case boundFloor:
		p := r.upper(h)
		if p > 0 {
			return r.firstOfRun(p - 1), nil
		}
		// PHP reads $list[count - 1]: a server only if a point equals it.
		distinct := 1
		for i := 1; i < n; i++ {
			if v[i] != v[i-1] {
				distinct++
			}
		}
		probe := uint32(distinct - 1)
		if q := r.lower(probe); q < n && v[q] == probe {
			return q, nil
		}
		return 0, ErrNoServer
	case boundFloorWrap:
		p := r.upper(h)
		if p == 0 {
			return r.firstOfRun(n - 1), nil
		}
		return r.firstOfRun(p - 1), nil
	default:
		return wrap(r.lower(h)), nil
	}
}

// widePosition is the continuum index of a 128-bit key (first position > w, wrapping).
func (r *Ring) widePosition(w wide128) (int, error) {
	n := len(r.wide)
	if n == 0 {
		return 0, ErrNoServer
	}
	p := sort.Search(n, func(i int) bool { return w.less(r.wide[i]) })
	if p == n {
		p = 0
	}
	return p, nil
}

// ownerAt is the owner of continuum index p (the tie rule's winner for sorted_list runs).
func (r *Ring) ownerAt(p int) int {
	if r.runs != nil && p+1 < len(r.values) && r.values[p+1] == r.values[p] {
		if o, ok := r.runs[uint32(p)]; ok {
			return int(o)
		}
	}
	return int(r.owners[p])
}

func md5Wide(k []byte) wide128 {
	d := md5.Sum(k)
	return wide128{binary.BigEndian.Uint64(d[:8]), binary.BigEndian.Uint64(d[8:])}
}

func (r *Ring) keyHash(k []byte) uint32 {
	if r.md5Key {
		return md5Ketama(k)
	}
	return r.hash(k)
}

// startOf is the continuum index the walks start from for a prepared key.
func (r *Ring) startOf(k []byte) int {
	if r.wide != nil {
		p, _ := r.widePosition(md5Wide(k))
		return p
	}
	if r.prof.place == placePeclBuckets {
		b := r.keyHash(k) % peclBuckets
		return lowerBound(r.values, b*peclStep) % len(r.values)
	}
	p, _ := r.position(r.keyHash(k))
	return p
}

// place is the server index of a prepared key (after refusals and the single-server rule).
func (r *Ring) place(k []byte) (int, error) {
	p := r.prof
	switch p.place {
	case placeRing:
		var at int
		var err error
		if r.wide != nil {
			at, err = r.widePosition(md5Wide(k))
		} else {
			at, err = r.position(r.keyHash(k))
		}
		if err != nil {
			return 0, err
		}
		return r.ownerAt(at), nil
	case placePeclBuckets:
		if r.pecl == nil {
			return 0, ErrNoServer
		}
		return int(r.pecl[r.keyHash(k)%peclBuckets]), nil
	case placeModula, placeJavaAbsModulo:
		var v uint64
		switch {
		case p.place == placeJavaAbsModulo && p.oldCompat:
			v = uabs(whalinOldCompat(k))
		case p.place == placeJavaAbsModulo:
			v = uabs(int64(int32(r.keyHash(k))))
		default:
			v = uint64(r.keyHash(k))
		}
		return r.slotOf(v)
	case placeFurc:
		n := len(r.servers)
		if n > furcMaxPool {
			return 0, ErrTooManyServers
		}
		if !p.weighted {
			return int(furcHash(k, uint32(n))), nil
		}
		i, ok := weightedCh3(k, r.furcW)
		if !ok {
			return 0, ErrNoServer
		}
		return i, nil
	case placeJump:
		return int(jump(uint64(r.keyHash(k)), uint32(len(r.servers)))), nil
	case placeRendezvous:
		return r.rendezvousBest(r.keyHash(k), nil)
	case placeMaglev:
		return int(r.maglev[r.keyHash(k)%maglevSize]), nil
	case placeHashRendezvous:
		return r.scoredBest(k, nil)
	case placeJumpXxh3:
		return int(jump(xxh3(k), uint32(len(r.servers)))), nil
	}
	return 0, ErrUnsupported
}

func uabs(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
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
	defer release(buf)
	if r.prof.singleShortcut && len(r.servers) == 1 {
		return 0, nil
	}
	return r.place(k)
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
	return r.hash(k), nil
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
// as many rehashes as servers), dalli's and python-memcached's rehashes (at most 20 and 10
// entries), emcache's primary alone, for every other client the next distinct servers (GetN).
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

func (r *Ring) locateN(key []byte, n int) ([]int, error) {
	first, err := r.locate(key)
	if err != nil {
		return nil, err
	}
	want := n
	if want > len(r.servers) {
		want = len(r.servers)
	}
	if want < 0 {
		want = 0
	}
	out := make([]int, 0, want)
	if want <= 0 {
		return out, nil
	}
	out = append(out, first)
	k, buf, _ := r.prepare(key)
	defer release(buf)
	push := func(i int) {
		for _, x := range out {
			if x == i {
				return
			}
		}
		out = append(out, i)
	}
	switch {
	case (r.prof.place == placeRing || r.prof.place == placePeclBuckets) && len(r.values) > 0:
		start := r.startOf(k)
		m := len(r.values)
		back := r.prof.place == placeRing && (r.prof.bound == boundFloor || r.prof.bound == boundFloorWrap)
		for step := 0; step < m && len(out) < want; step++ {
			p := (start + step) % m
			if back {
				p = (start + m - step%m) % m
			}
			push(int(r.owners[p]))
		}
	case r.prof.place == placeHashRendezvous:
		out = r.scoredN(k, out, want)
	case r.prof.place == placeRendezvous:
		h := r.keyHash(k)
		for len(out) < want {
			i, err := r.rendezvousBest(h, out)
			if err != nil {
				break
			}
			out = append(out, i)
		}
	default:
		for step := 1; step < len(r.servers) && len(out) < want; step++ {
			push((first + step) % len(r.servers))
		}
	}
	return out, nil
}

func (r *Ring) failover(key []byte, n int) ([]int, error) {
	p := r.prof
	if out, ok, err := r.clientFailover(key, n); ok {
		return out, err
	}
	if !p.rehash || (p.place != placeRing && p.place != placePeclBuckets) {
		return r.locateN(key, n)
	}
	if p.bounded && n > len(r.servers)+1 {
		n = len(r.servers) + 1
	}
	if n < 0 {
		n = 0
	}
	first, err := r.locate(key)
	if err != nil {
		return nil, err
	}
	out := make([]int, 0, n)
	if n <= 0 {
		return out, nil
	}
	out = append(out, first)
	k, buf, _ := r.prepare(key)
	defer release(buf)
	hv := r.hash(k)
	tagged := make([]byte, 0, len(k)+20)
	t := uint64(p.firstTag)
	for len(out) < n && len(r.values) > 0 {
		tagged = append(strconv.AppendUint(tagged[:0], t, 10), k...)
		hv += r.hash(tagged)
		at := r.lower(hv)
		if at == len(r.values) {
			at = 0
		}
		out = append(out, r.ownerAt(at))
		t++
	}
	return out, nil
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
