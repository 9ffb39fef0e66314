package ketama

import (
	"sort"
	"strconv"
)

// The clients' own retry rules when a server is down: dalli's and python-memcached's
// bounded rehashes and emcache's staying on its pick (spec failover kinds rehash_key,
// rehash_hash, stay).

// clientFailover is the failover sequence under the profile's rehash_key, rehash_hash or
// stay rule; ok is false for the other rules (walk, rehash: Ring.failover).
func (r *Ring) clientFailover(key []byte, n int) (out []int, ok bool, err error) {
	p := r.prof
	if p.fail == failDefault {
		return nil, false, nil
	}
	first, err := r.locate(key)
	if err != nil {
		return nil, true, err
	}
	limit := p.tries
	switch p.fail {
	case failStay:
		limit = 1
	case failRehashKeyUntried:
		limit = len(r.servers)
	}
	if n > limit {
		n = limit
	}
	if n <= 0 {
		return []int{}, true, nil
	}
	out = append(make([]int, 0, n), first)
	if p.singleShortcut && len(r.servers) == 1 {
		return out, true, nil
	}
	k, buf, _ := r.prepare(key)
	defer release(buf)
	tagged := make([]byte, 0, len(k)+20)
	if p.fail == failRehashKeyUntried {
		return r.rehashUntried(k, n, out, tagged)
	}
	h := r.hash(k)
	for t := 0; len(out) < n; t++ {
		switch p.fail {
		case failRehashKey:
			tagged = append(strconv.AppendUint(tagged[:0], uint64(t), 10), k...)
		case failRehashKeyDash:
			tagged = strconv.AppendUint(append(append(tagged[:0], k...), '-'), uint64(t), 10)
		default:
			tagged = strconv.AppendUint(strconv.AppendUint(tagged[:0], uint64(h), 10), uint64(t), 10)
		}
		h = r.hash(tagged)
		i, err := r.placeHash(h)
		if err != nil {
			return nil, true, err
		}
		out = append(out, i)
	}
	return out, true, nil
}

// untriedRehashCap bounds rehash_key_untried's search for servers not yet met (the client
// has none: a server owning no bucket would keep it searching forever).
const untriedRehashCap = 1 << 20

// rehashUntried extends out (the key's own server) with whalin's rehashes: str(t) + k for
// t = 0, 1, ... placed as a key, each server kept the first time it comes up, until n.
func (r *Ring) rehashUntried(k []byte, n int, out []int, tagged []byte) ([]int, bool, error) {
	for t := 0; len(out) < n && t < untriedRehashCap; t++ {
		tagged = append(strconv.AppendUint(tagged[:0], uint64(t), 10), k...)
		i, err := r.place(tagged)
		if err != nil {
			return nil, true, err
		}
		seen := false
		for _, o := range out {
			if o == i {
				seen = true
				break
			}
		}
		if !seen {
			out = append(out, i)
		}
	}
	return out, true, nil
}

// placeHash places a key hash value as the profile places a key's hash (the rehashed
// values of rehash_key and rehash_hash); ErrNeedsKey where the client reads more than a
// 32-bit hash.
func (r *Ring) placeHash(h uint32) (int, error) {
	p := r.prof
	switch p.place {
	case placeRing:
		if r.wide != nil {
			return 0, ErrNeedsKey
		}
		at, err := r.position(h)
		if err != nil {
			return 0, err
		}
		return r.ownerAt(at), nil
	case placePeclBuckets:
		if r.pecl == nil {
			return 0, ErrNoServer
		}
		return int(r.pecl[h%peclBuckets]), nil
	case placeModula:
		return r.slotOf(uint64(h))
	case placeJavaAbsModulo:
		if p.oldCompat {
			return 0, ErrNeedsKey
		}
		return r.slotOf(uabs(int64(int32(h))))
	case placeJump:
		return int(jump(uint64(h), uint32(len(r.servers)))), nil
	case placeRendezvous:
		return r.rendezvousBest(h, nil)
	case placeMaglev:
		return int(r.maglev[h%maglevSize]), nil
	}
	return 0, ErrNeedsKey
}

// slotOf is the server of slot value v on a modulo placement (high15 folding, weighted
// buckets or plain modulo over the ordered servers).
func (r *Ring) slotOf(v uint64) (int, error) {
	p := r.prof
	if p.high15 {
		v = (v >> 16) & 0x7fff
		if v == 0 {
			v = 1
		}
	}
	var at int
	if p.weighted {
		total := r.cumulative[len(r.cumulative)-1]
		if total == 0 {
			return 0, ErrNoServer
		}
		slot := v % total
		at = sort.Search(len(r.cumulative), func(i int) bool { return r.cumulative[i] > slot })
	} else {
		at = int(v % uint64(len(r.ordered)))
	}
	return int(r.ordered[at]), nil
}

// spySequence is spymemcached's getSequence length: the primary and 6 rehashes.
const spySequence = 7

// FailoverLimit is how many servers the profile's client tries for one key before it gives
// up: every server for a walk, servers + 1 for xmemcached's bounded rehash, 7 for
// spymemcached's, the retry count for dalli (20) and python-memcached (10), 1 for emcache.
func (r *Ring) FailoverLimit() int {
	p := r.prof
	switch {
	case p.fail == failStay:
		return 1
	case p.fail == failRehashKeyUntried:
		return len(r.servers)
	case p.fail != failDefault:
		return p.tries
	case p.rehash && p.bounded:
		return len(r.servers) + 1
	case p.rehash:
		return spySequence
	}
	return len(r.servers)
}

// IndexAlive is the index of the server key goes to while the servers at the indexes in
// down are unreachable: the first server of the client's failover sequence (Failover, up
// to FailoverLimit entries) that is not down. ErrNoServer when the client gives up (every
// server it would try is down).
func (r *Ring) IndexAlive(key string, down []int) (int, error) {
	k := bytesOf(key)
	if len(down) == 0 {
		return r.locate(k)
	}
	seq, err := r.failover(k, r.FailoverLimit())
	if err != nil {
		return 0, err
	}
next:
	for _, i := range seq {
		for _, d := range down {
			if i == d {
				continue next
			}
		}
		return i, nil
	}
	return 0, ErrNoServer
}
