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
	case formulaPredis:
		return clampCount(phpRound(float64(w) / float64(total) * float64(n) * 128.0))
	case formulaPredisKetama:
		return clampCount(math.Floor(float64(w) / float64(total) * float64(n) * 40.0))
	case formulaFinagle:
		t := int32(total)
		if t == 0 {
			return 0
		}
		x := float64(float64(int32(w)) / float64(t) * float64(n) * 40.0)
		return clampCount(x + 1e-10)
	}
	return 0
}

// phpRound is PHP's round($x) (PHP_ROUND_HALF_UP) as PHP 8.0 to 8.3 compute it for a
// non-negative finite x: when x has a place to spare below 10^15 it is first rounded to 15
// significant digits (x * 10^p rounded half up, divided back), then rounded half up to an
// integer.
func phpRound(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 {
		return math.Max(x, 0)
	}
	places := 14 - phpIntLog10(x)
	pre := x
	switch {
	case places > 0 && places < 15:
		f := phpPow10(places)
		pre = roundHalfUp(float64(x*f)) / f
	case x >= 1e15:
		return x
	}
	return roundHalfUp(pre)
}

// roundHalfUp is floor(x + 0.5), PHP's php_round_helper for a non-negative x.
func roundHalfUp(x float64) float64 { return math.Floor(x + 0.5) }

// phpIntLog10 is floor(log10(x)) for 1e-8 <= x <= 1e22 as PHP finds it (comparing with
// exact powers of ten); -8 below that range, 23 above.
func phpIntLog10(x float64) int {
	e := -8
	for e < 23 && phpPow10(e+1) <= x {
		e++
	}
	return e
}

// phpPow10 is 10^e as PHP's table holds it (the nearest double: exact for 0 <= e <= 22).
func phpPow10(e int) float64 {
	p := 1.0
	for i := 0; i < e || i < -e; i++ {
		p *= 10
	}
	if e < 0 {
		return 1 / p
	}
	return p
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
	case countPerWeightInt:
		// A Java int: the product wraps at 32 bits, a negative count gives no strings.
		if c := int32(p.countStrings) * int32(w); c > 0 {
			return uint32(c)
		}
		return 0
	default:
		if w == 0 {
			return 0
		}
		return digests(p.formula, w, total, n)
	}
}
