// go-redis v9's rendezvous (Ring, through dgryski/go-rendezvous): each server scores a mix of
// the key's 64-bit hash with its node string's, the greatest score wins.

package ketama

// xorshiftMult64 is go-rendezvous's mix.
func xorshiftMult64(x uint64) uint64 {
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	return x * 2685821657736338717
}

// mixedBest is the server with the greatest mix(keyHash ^ node hash) among those not in
// skip (a skipped server is as if it had left the list); an equal score keeps the earlier
// server.
func (r *Ring) mixedBest(keyHash uint64, skip []int) (int, error) {
	best, at := uint64(0), -1
outer:
	for i, n := range r.mixed {
		for _, s := range skip {
			if s == i {
				continue outer
			}
		}
		if score := xorshiftMult64(keyHash ^ n); at < 0 || score > best {
			best, at = score, i
		}
	}
	if at < 0 {
		return 0, ErrNoServer
	}
	return at, nil
}
