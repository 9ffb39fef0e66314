// Looking a prepared key up: the searches of the continuum by the profile's bound, its tie
// runs, and the placement of a key by every algorithm.

package ketama

import (
	"crypto/md5"
	"encoding/binary"
	"sort"
)

// searchWindow is how many positions a search compares at once: a bucket of the index
// smaller than this is searched by counting, without branches, the positions of a window
// of this many that are below the key hash (r.window holds this many MaxUint32 past the
// last position, so every window is whole).
const searchWindow = 8

// lower is lowerBound(r.values, h) through the bucket index.
func (r *Ring) lower(h uint32) int {
	b := h >> r.shift
	lo, hi := int(r.index[b]), int(r.index[b+1])
	if hi-lo < searchWindow && lo+searchWindow <= len(r.window) {
		w := r.window[lo : lo+searchWindow : lo+searchWindow]
		n := 0
		for _, v := range w {
			if v < h {
				n++
			}
		}
		return lo + n
	}
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
	if hi-lo < searchWindow && lo+searchWindow <= len(r.window) {
		w := r.window[lo : lo+searchWindow : lo+searchWindow]
		n := 0
		for _, v := range w {
			if v <= h {
				n++
			}
		}
		if n > hi-lo {
			n = hi - lo // the padding's MaxUint32 when h is MaxUint32
		}
		return lo + n
	}
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
	case boundLowerBoundSigned:
		return wrap(r.lower(h ^ 0x80000000)), nil
	case boundUpperBound:
		return wrap(r.upper(h)), nil
	case boundLowerBoundZeroLast:
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
	case boundUpperBoundClamp:
		// No wrap: past the last point, the last point.
		if p := r.upper(h); p < n {
			return p, nil
		}
		return r.firstOfRun(n - 1), nil
	case boundLowerBoundBelowLast:
		// A hash below the first point goes to the last point.
		p := r.lower(h)
		if p == 0 && v[0] != h {
			return r.firstOfRun(n - 1), nil
		}
		return wrap(p), nil
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
	if k == nil && r.opts.HashWithPrefix {
		return 0 // not hashed (see withPrefix)
	}
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
	if r.wide64 != nil {
		p, _ := r.position64(r.hash64(k))
		return p
	}
	if r.prof.layout == layoutBuckets {
		p, _ := r.position((r.keyHash(k) % peclBuckets) * peclStep)
		return p
	}
	p, _ := r.position(r.keyHash(k))
	return p
}

// place is the server index of a prepared key (after refusals and the single-server rule).
func (r *Ring) place(k []byte) (int, error) {
	p := r.prof
	switch p.layout {
	case layoutWide:
		at, err := r.widePosition(md5Wide(k))
		if err != nil {
			return 0, err
		}
		return r.ownerAt(at), nil
	case layoutSorted, layoutTieRuns:
		at, err := r.position(r.keyHash(k))
		if err != nil {
			return 0, err
		}
		return r.ownerAt(at), nil
	case layoutWide64:
		at, err := r.position64(r.hash64(k))
		if err != nil {
			return 0, err
		}
		return int(r.owners[at]), nil
	case layoutBuckets:
		if r.pecl == nil {
			return 0, ErrNoServer
		}
		return int(r.pecl[r.keyHash(k)%peclBuckets]), nil
	case layoutSlots:
		if p.place == placeJavaAbsModulo && p.oldCompat {
			return r.slotOf(uabs(whalinOldCompat(k)))
		}
		return r.slotOfHash(r.keyHash(k))
	case layoutFurc:
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
	case layoutJump:
		return int(jump(uint64(r.keyHash(k)), uint32(len(r.servers)))), nil
	case layoutRendezvous:
		return r.rendezvousBest(r.keyHash(k), nil)
	case layoutMaglev:
		return int(r.maglev[r.keyHash(k)%maglevSize]), nil
	case layoutScored:
		return r.scoredBest(k, nil)
	case layoutJumpXxh3:
		return int(jump(xxh3(k), uint32(len(r.servers)))), nil
	case layoutMixed:
		return r.mixedBest(r.hash64(k), nil)
	case layoutScaled:
		return r.scaled.locate(r.keyHash(k))
	}
	return 0, ErrUnsupported
}

func uabs(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
}
