// Each client's failover sequence: the servers it tries for a key, in order, while the
// earlier ones are down. Every sequence is shown one server index at a time to a visitor
// that may stop it, so IndexAlive ends at the first live server as the client does
// (whalin's rehashes may never reach every server; they cost only as many as it takes).

package ketama

import "strconv"

// visit is shown each server of a failover sequence in order; it returns true to stop.
type visit func(i int) bool

// spySequence is spymemcached's getSequence length: the primary and 6 rehashes.
const spySequence = 7

// untriedRehashCap bounds rehash_key_untried's search for servers not yet met (the client
// has none: a server owning no bucket would keep it searching forever).
const untriedRehashCap = 1 << 20

// failover is the first n servers of key's failover sequence.
func (r *Ring) failover(key []byte, n int) ([]int, error) {
	out := []int{}
	err := r.eachFailover(key, n, func(i int) bool {
		out = append(out, i)
		return false
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// FailoverLimit is how many servers the profile's client tries for one key before it gives
// up: every server for a walk and for whalin, servers + 1 for xmemcached's bounded rehash
// and Enyim's ketama locator, 7 for spymemcached's, the retry count for dalli (20), pecl
// memcache (21), python-memcached (10) and Cache::Memcached (20), 1 for the clients that
// keep their pick (emcache, Predis, phpredis, redis-rb, Jedis, ...).
func (r *Ring) FailoverLimit() int {
	p := r.prof
	switch {
	case p.fail == failStay:
		return 1
	case p.fail == failRehashKeyUntried:
		return len(r.servers)
	case p.fail == failRehashDoubled, p.fail == failRehash && p.bounded:
		return len(r.servers) + 1
	case p.fail == failRehash:
		return spySequence
	case p.fail != failWalk:
		return p.tries
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
	alive := -1
	err := r.eachFailover(k, r.FailoverLimit(), func(i int) bool {
		for _, d := range down {
			if i == d {
				return false
			}
		}
		alive = i
		return true
	})
	if err != nil {
		return 0, err
	}
	if alive < 0 {
		return 0, ErrNoServer
	}
	return alive, nil
}

// eachFailover shows v key's failover sequence, at most n servers, until v returns true.
func (r *Ring) eachFailover(key []byte, n int, v visit) error {
	first, err := r.locate(key)
	if err != nil {
		return err
	}
	if n <= 0 || v(first) {
		return nil
	}
	p := r.prof
	switch {
	case p.fail == failStay:
		return nil
	case p.fail == failRehashKeyUntried:
		return r.rehashUntried(key, first, atMost(n, len(r.servers)), v)
	case p.fail == failRehash && p.isRing:
		if p.bounded {
			n = atMost(n, len(r.servers)+1)
		}
		r.rehashWalk(key, n-1, v)
		return nil
	case p.fail == failRehashDoubled:
		return r.rehashTries(key, atMost(n, len(r.servers)+1), v)
	case p.fail != failWalk && p.fail != failRehash:
		return r.rehashTries(key, atMost(n, p.tries), v)
	}
	rest, err := r.locateN(key, n)
	if err != nil {
		return err
	}
	for _, i := range rest[1:] {
		if v(i) {
			break
		}
	}
	return nil
}

// rehashWalk is spymemcached's and xmemcached's rule, rehashes times after the key's own
// server: hv = (hv + H(str(t) + key)) mod 2^32 for t from the profile's first tag, each hv
// looked up on the continuum (servers may repeat).
func (r *Ring) rehashWalk(key []byte, rehashes int, v visit) {
	if len(r.values) == 0 {
		return
	}
	k, buf, _ := r.prepare(key)
	defer release(buf)
	hv := r.hash(k)
	tagged := make([]byte, 0, len(k)+20)
	t := uint64(r.prof.firstTag)
	for ; rehashes > 0; rehashes-- {
		tagged = append(strconv.AppendUint(tagged[:0], t, 10), k...)
		hv += r.hash(tagged)
		at := r.lower(hv)
		if at == len(r.values) {
			at = 0
		}
		if v(r.ownerAt(at)) {
			return
		}
		t++
	}
}

// atMost is the smaller of a and b.
func atMost(a, b int) int {
	if a < b {
		return a
	}
	return b
}
