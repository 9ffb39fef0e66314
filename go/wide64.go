// A continuum of 64-bit positions (Jedis): each point string's 64-bit key hash, searched
// first position >= the key's 64-bit hash in the bound's order (signed for Jedis's
// TreeMap<Long>), wrapping to the first.

package ketama

// flip64 is what is XORed into a 64-bit position or key hash so that unsigned order is the
// bound's order (2^63 for the signed search, else 0).
func flip64(b boundKind) uint64 {
	if b == boundLowerBoundSigned {
		return 1 << 63
	}
	return 0
}

// position64 is the continuum index of a key's 64-bit hash h (not yet flipped). r.values
// holds the top 32 bits of r.wide64, so the bucket index narrows the search.
func (r *Ring) position64(h uint64) (int, error) {
	n := len(r.wide64)
	if n == 0 {
		return 0, ErrNoServer
	}
	h ^= flip64(r.prof.bound)
	b := uint32(h>>32) >> r.shift
	lo, hi := int(r.index[b]), int(r.index[b+1])
	w := r.wide64
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if w[m] < h {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == n {
		return 0, nil
	}
	return lo, nil
}
