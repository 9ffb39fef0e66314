// Building a continuum: each server's points generated from its node string in the client's
// form, laid out in the client's server and tie order, sorted, and indexed for the search.

package ketama

import (
	"crypto/md5"
	"encoding/binary"
	"math"
	"sort"
	"strconv"
	"unicode/utf16"
)

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

// effectiveWeight is the weight as the profile counts it (zero_weight "as_one", "as_hundred").
func (r *Ring) effectiveWeight(w uint32) uint32 {
	switch {
	case w != 0:
		return w
	case r.prof.zero == zeroAsOne:
		return 1
	case r.prof.zero == zeroAsHundred:
		return 100
	}
	return 0
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
	later := p.ties == tiesLaterWins
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
	r.window = make([]uint32, len(pts)+searchWindow)
	r.values = r.window[:len(pts)]
	for i := len(pts); i < len(r.window); i++ {
		r.window[i] = math.MaxUint32
	}
	r.owners = make([]uint32, len(pts))
	for i, pt := range pts {
		r.values[i], r.owners[i] = pt.value, pt.owner
	}
	switch p.layout {
	case layoutWide:
		r.wide = make([]wide128, len(pts))
		for i, pt := range pts {
			r.wide[i] = pt.wide
		}
	case layoutWide64:
		r.wide64 = make([]uint64, len(pts))
		for i, pt := range pts {
			r.wide64[i] = pt.wide.hi
		}
	}
	r.buildIndex()
	switch p.layout {
	case layoutBuckets:
		if len(r.values) > 0 {
			r.pecl = make([]uint32, peclBuckets)
			for b := uint32(0); b < peclBuckets; b++ {
				at, _ := r.position(b * peclStep)
				r.pecl[b] = r.owners[at]
			}
		}
	case layoutTieRuns:
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
	case strStar:
		buf = append(append(buf, node...), '*')
		return strconv.AppendUint(buf, uint64(i), 10)
	case strDashNode:
		buf = append(append(buf, node...), "-NODE-"...)
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
		if p.bound == boundLowerBoundSigned {
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
		case p.points == pointsMd5WordBe:
			d := md5.Sum(buf)
			pts = append(pts, point{value: binary.BigEndian.Uint32(d[:4]), owner: owner})
		case p.points == pointsFnv1aFirstZero && i == 0:
			pts = append(pts, point{value: fnv1a32Zero(buf), owner: owner})
		case p.points == pointsFnv1aFirstZero:
			pts = append(pts, point{value: fnvBytes(buf, false, fnv1a, basis32, prime32), owner: owner})
		case p.points == pointsKeyHash64:
			// 64-bit positions in the order the bound compares (signed for Jedis).
			h := r.hash64(buf) ^ flip64(p.bound)
			pts = append(pts, point{value: uint32(h >> 32), owner: owner, wide: wide128{hi: h}})
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
