package ketama

import "math"

// jump is Lamping & Veach's jump consistent hash.
func jump(key uint64, buckets uint32) uint32 {
	b, j := int64(-1), int64(0)
	for j < int64(buckets) {
		b = j
		key = key*2862933555777941757 + 1
		r := float64((key >> 33) + 1)
		j = int64(float64(b+1) * (float64(uint64(1)<<31) / r))
	}
	if b < 0 {
		return 0
	}
	return uint32(b)
}

// mix64 is SplitMix64's finaliser.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// lnSeries is the core's natural logarithm (x = m 2^e, ln m by the atanh series), so scores
// are bit-identical to the Rust core's.
func lnSeries(x float64) float64 {
	b := math.Float64bits(x)
	e := int64((b>>52)&0x7ff) - 1023
	m := math.Float64frombits((b & 0x000fffffffffffff) | 0x3ff0000000000000)
	t := (m - 1) / (m + 1)
	t2 := t * t
	term, sum, k := t, 0.0, 1.0
	for i := 0; i < 20; i++ {
		sum += term / k
		term *= t2
		k += 2
	}
	return 2*sum + float64(e)*math.Ln2
}

// rendezvousScore is a server's weighted rendezvous score for key hash h, from its 64-bit
// node hash.
func rendezvousScore(nodeHash uint64, weight uint32, h uint32) float64 {
	if weight == 0 {
		return math.Inf(-1)
	}
	x := mix64(nodeHash ^ mix64(uint64(h)))
	u := (float64(x>>11) + 0.5) / float64(uint64(1)<<53)
	return -float64(weight) / lnSeries(u)
}

func (r *Ring) rendezvousBest(h uint32, skip []int) (int, error) {
	best, bestScore := -1, math.Inf(-1)
next:
	for i := range r.servers {
		for _, s := range skip {
			if s == i {
				continue next
			}
		}
		s := rendezvousScore(r.seeds[i], r.servers[i].Weight, h)
		if s > math.Inf(-1) && (best < 0 || s > bestScore) {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return 0, ErrNoServer
	}
	return best, nil
}

// maglevTable fills the 65,537-entry lookup table from each server's (offset, skip), taken
// from its 64-bit node hash.
func maglevTable(nodeHashes []uint64) []uint32 {
	if len(nodeHashes) == 0 {
		return nil
	}
	m := uint64(maglevSize)
	type perm struct{ offset, skip uint64 }
	perms := make([]perm, len(nodeHashes))
	for i, s := range nodeHashes {
		perms[i] = perm{(s >> 32) % m, (s&0xffffffff)%(m-1) + 1}
	}
	next := make([]uint64, len(nodeHashes))
	entry := make([]uint32, maglevSize)
	for i := range entry {
		entry[i] = math.MaxUint32
	}
	filled := uint32(0)
	for filled < maglevSize {
		for i, p := range perms {
			c := (p.offset + next[i]*p.skip) % m
			for entry[c] != math.MaxUint32 {
				next[i]++
				c = (p.offset + next[i]*p.skip) % m
			}
			entry[c] = uint32(i)
			next[i]++
			filled++
			if filled == maglevSize {
				break
			}
		}
	}
	return entry
}
