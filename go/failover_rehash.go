package ketama

import (
	"math"
	"sort"
	"strconv"
)

// The clients' rehash rules when a server is down: dalli's, pecl memcache's,
// python-memcached's, Cache::Memcached's and Enyim's bounded rehashes and whalin's search
// for untried servers (spec failover kinds rehash_key, rehash_key_dash, rehash_hash,
// rehash_sum, rehash_doubled, rehash_key_untried).

// rehashTries shows v the n - 1 rehashes after the key's own server (n lookups in all),
// each placed as a key's hash is: str(t) + key (dalli), key + "-" + str(t) (pecl memcache),
// str(previous hash) + str(t) (python-memcached), the previous hash plus that of
// str(t + 1) + key (Cache::Memcached), twice that of str(t) + key (Enyim). One server with
// the single-server shortcut has nowhere else to go.
func (r *Ring) rehashTries(key []byte, n int, v visit) error {
	p := r.prof
	if p.singleShortcut && len(r.servers) == 1 {
		return nil
	}
	k, buf, _ := r.prepare(key)
	defer release(buf)
	tagged := make([]byte, 0, len(k)+40)
	h := r.hash(k)
	for t := 0; t < n-1; t++ {
		switch p.fail {
		case failRehashKey:
			tagged = append(strconv.AppendUint(tagged[:0], uint64(t), 10), k...)
		case failRehashKeyDash:
			tagged = strconv.AppendUint(append(append(tagged[:0], k...), '-'), uint64(t), 10)
		case failRehashSum:
			tagged = append(strconv.AppendUint(tagged[:0], uint64(t+1), 10), k...)
		case failRehashDoubled:
			tagged = append(strconv.AppendUint(tagged[:0], uint64(t), 10), k...)
		default:
			tagged = strconv.AppendUint(strconv.AppendUint(tagged[:0], uint64(h), 10), uint64(t), 10)
		}
		switch p.fail {
		case failRehashSum:
			h += r.hash(tagged)
		case failRehashDoubled:
			h = 2 * r.hash(tagged)
		default:
			h = r.hash(tagged)
		}
		i, err := r.placeHash(h)
		if err != nil {
			return err
		}
		if v(i) {
			return nil
		}
	}
	return nil
}

// rehashUntried shows v whalin's rehashes after the key's own server first: str(t) + key
// for t = 0, 1, ... placed as a key, each server shown the first time it comes up, until n
// have been or untriedRehashCap rehashes were made.
func (r *Ring) rehashUntried(key []byte, first, n int, v visit) error {
	k, buf, _ := r.prepare(key)
	defer release(buf)
	tagged := make([]byte, 0, len(k)+20)
	shown := append(make([]int, 0, atMost(n, 64)), first)
	for t := 0; len(shown) < n && t < untriedRehashCap; t++ {
		tagged = append(strconv.AppendUint(tagged[:0], uint64(t), 10), k...)
		i, err := r.place(tagged)
		if err != nil {
			return err
		}
		seen := false
		for _, o := range shown {
			if o == i {
				seen = true
				break
			}
		}
		if !seen {
			shown = append(shown, i)
			if v(i) {
				return nil
			}
		}
	}
	return nil
}

// placeHash places a key hash value as the profile places a key's hash (the rehashed
// values of rehash_key and rehash_hash); ErrNeedsKey where the client reads more than a
// 32-bit hash.
func (r *Ring) placeHash(h uint32) (int, error) {
	p := r.prof
	switch p.layout {
	case layoutSorted, layoutTieRuns:
		at, err := r.position(h)
		if err != nil {
			return 0, err
		}
		return r.ownerAt(at), nil
	case layoutBuckets:
		if r.pecl == nil {
			return 0, ErrNoServer
		}
		return int(r.pecl[h%peclBuckets]), nil
	case layoutSlots:
		if p.oldCompat {
			return 0, ErrNeedsKey
		}
		return r.slotOfHash(h)
	case layoutScaled:
		return r.scaled.locate(h)
	case layoutJump:
		return int(jump(uint64(h), uint32(len(r.servers)))), nil
	case layoutRendezvous:
		return r.rendezvousBest(h, nil)
	case layoutMaglev:
		return int(r.maglev[h%maglevSize]), nil
	}
	return 0, ErrNeedsKey
}

// slotOfHash is the server of a 32-bit key hash on a slots placement: the hash itself
// (modula), |h| of the hash as a Java long (java_abs_modulo), or phpredis's proportional
// range.
func (r *Ring) slotOfHash(h uint32) (int, error) {
	switch r.prof.place {
	case placeJavaAbsModulo:
		return r.slotOf(uabs(int64(int32(h))))
	case placeProportional:
		// 2^32 - 1 lands one past the last server, which the client reads out of bounds.
		at := uint64(h) * uint64(len(r.ordered)) / math.MaxUint32
		if at >= uint64(len(r.ordered)) {
			return 0, ErrNoServer
		}
		return int(r.ordered[at]), nil
	}
	return r.slotOf(uint64(h))
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
