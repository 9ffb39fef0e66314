// Cache::Memcached::Fast's Cache::Memcached-compatible continuum (ketama_points => 0): one
// point per server, each server's share of [0, 2^32 - 1] proportional to its weight, and a
// key's 15-bit hash scaled onto it, so that it picks the server Cache::Memcached's bucket
// list picks (up to the client's double rounding, which this reproduces).

package ketama

import "math"

// scaledPoints is one point per server, in the client's order (ascending), and the total
// weight as the client keeps it (a double).
type scaledPoints struct {
	points []uint32 // each server's point
	owners []uint32 // the server index of each point
	total  float64
}

// newScaledPoints adds the servers in the client's order (ranks): the total grows by the
// new weight w, every earlier point p becomes (u32)(p - (double)p * (w / total)), and the
// new server's point is 2^32 - 1.
func newScaledPoints(servers []parsed, ranks []uint32) scaledPoints {
	order := make([]uint32, len(servers))
	for i, rank := range ranks {
		order[rank] = uint32(i)
	}
	s := scaledPoints{points: make([]uint32, 0, len(servers)), owners: make([]uint32, 0, len(servers))}
	for _, i := range order {
		w := float64(servers[i].Weight)
		s.total += w
		scale := w / s.total
		for j, p := range s.points {
			x := float64(p)
			s.points[j] = cToU32(x - float64(x*scale))
		}
		s.points = append(s.points, math.MaxUint32)
		s.owners = append(s.owners, i)
	}
	return s
}

// locate is the server index for a key's 15-bit hash h: b = h % (u32)(total + 0.5), its
// point (u32)((double)b / total * 4294967295.0 + 0.5) + 1 (wrapping), and the first server
// point >= it (the first of equal ones), wrapping to the first point.
func (s *scaledPoints) locate(h uint32) (int, error) {
	buckets := cToU32(s.total + 0.5)
	if buckets == 0 || len(s.points) == 0 {
		return 0, ErrNoServer
	}
	b := h % buckets
	point := cToU32(float64(float64(b)/s.total*math.MaxUint32)+0.5) + 1
	at := lowerBound(s.points, point)
	if at == len(s.points) {
		at = 0
	}
	return int(s.owners[at]), nil
}

// cToU32 converts a non-negative double to unsigned int as x86-64 C compilers do (through a
// 64-bit integer, keeping its low 32 bits; NaN and negatives give 0, and 2^64 or more the
// saturated 64-bit value's low bits, as core does: no weights reach either).
func cToU32(x float64) uint32 {
	switch {
	case math.IsNaN(x) || x <= 0:
		return 0
	case x >= 1<<64:
		return math.MaxUint32
	}
	return uint32(uint64(x))
}
