package ketama

import (
	"math"
	"math/bits"
)

// clampCount turns a formula's float result into a string count (0 for negative or
// non-finite results, at most 2^32 - 1).
func clampCount(x float64) uint32 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 {
		return 0
	}
	if x >= math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(x)
}

// digests is the relative formula f for weight w of total weight total over n servers.
// Explicit float32(...) conversions keep every step rounded as the clients' C code does
// (and forbid fused multiply-adds).
func digests(f formula, w uint32, total uint64, n int) uint32 {
	if total == 0 {
		return 0
	}
	switch f {
	case formulaLibketama:
		p := float32(float32(w) / float32(total))
		x := float64(p) * 40.0 * float64(float32(n))
		return clampCount(float64(floor32(float32(x))))
	case formulaLibmemcached:
		p := float32(float32(w) / float32(total))
		a := float32(p * 160)
		b := float32(a / 4)
		c := float32(b * float32(n))
		return clampCount(float64(floor32(float32(c + 1e-10))))
	case formulaNodeHashring:
		return clampCount(math.Floor(float64(float64(w)/float64(total)*40.0) * float64(n)))
	case formulaIntegerDiv:
		hi, lo := bits.Mul64(40*uint64(n), uint64(w))
		if hi >= total {
			return math.MaxUint32
		}
		q, _ := bits.Div64(hi, lo, total)
		if q > math.MaxUint32 {
			return math.MaxUint32
		}
		return uint32(q)
	case formulaWhalin:
		p := int32(w) * int32(uint64(40*n))
		t := int32(total)
		if t == 0 {
			return 0
		}
		return clampCount(math.Floor(float64(p) / float64(t)))
	case formulaDalli:
		hi, lo := bits.Mul64(160*uint64(n), uint64(w))
		p := float64(hi)*18446744073709551616.0 + float64(lo)
		return clampCount(math.Floor(p / float64(total)))
	}
	return 0
}

func floor32(x float32) float32 { return float32(math.Floor(float64(x))) }

// stringsFor is how many point strings a server of (effective) weight w gets.
func stringsFor(p *profile, w uint32, total uint64, n int) uint32 {
	switch p.count {
	case countFixed:
		return p.countStrings
	case countPerWeight:
		hi, lo := bits.Mul32(p.countStrings, w)
		if hi != 0 {
			return math.MaxUint32
		}
		return lo
	default:
		if w == 0 {
			return 0
		}
		return digests(p.formula, w, total, n)
	}
}
