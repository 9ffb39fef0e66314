package ketama

import (
	"encoding/binary"
	"math/bits"
)

// SpookyHash V2 (Bob Jenkins), as folly and mcrouter use it.

const (
	scConst    uint64 = 0xdeadbeefdeadbeef
	spookyVars        = 12
	spookyBlk         = spookyVars * 8
	spookyBuf         = 2 * spookyBlk
)

func word64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[8*i:]) }

var shortMixR = [12][4]uint32{
	{2, 3, 0, 50}, {3, 0, 1, 52}, {0, 1, 2, 30}, {1, 2, 3, 41},
	{2, 3, 0, 54}, {3, 0, 1, 48}, {0, 1, 2, 38}, {1, 2, 3, 37},
	{2, 3, 0, 62}, {3, 0, 1, 34}, {0, 1, 2, 5}, {1, 2, 3, 36},
}

var shortEndR = [11][3]uint32{
	{3, 2, 15}, {0, 3, 52}, {1, 0, 26}, {2, 1, 51}, {3, 2, 28}, {0, 3, 9},
	{1, 0, 47}, {2, 1, 54}, {3, 2, 32}, {0, 3, 25}, {1, 0, 63},
}

func shortMix(h *[4]uint64) {
	for _, r := range shortMixR {
		a, b, c := r[0], r[1], r[2]
		h[a] = bits.RotateLeft64(h[a], int(r[3]))
		h[a] += h[b]
		h[c] ^= h[a]
	}
}

func shortEnd(h *[4]uint64) {
	for _, r := range shortEndR {
		a, b := r[0], r[1]
		h[a] ^= h[b]
		h[b] = bits.RotateLeft64(h[b], int(r[2]))
		h[a] += h[b]
	}
}

func spookyShort(m []byte, s1, s2 uint64) (uint64, uint64) {
	n := len(m)
	h := [4]uint64{s1, s2, scConst, scConst}
	rest := m
	if n > 15 {
		for len(rest) >= 32 {
			h[2] += word64(rest, 0)
			h[3] += word64(rest, 1)
			shortMix(&h)
			h[0] += word64(rest, 2)
			h[1] += word64(rest, 3)
			rest = rest[32:]
		}
		if len(rest) >= 16 {
			h[2] += word64(rest, 0)
			h[3] += word64(rest, 1)
			shortMix(&h)
			rest = rest[16:]
		}
	}
	h[3] += uint64(n) << 56
	r := len(rest)
	switch {
	case r >= 8:
		var hi [8]byte
		copy(hi[:], rest[8:r])
		h[3] += binary.LittleEndian.Uint64(hi[:])
		h[2] += word64(rest, 0)
	case r > 0:
		var lo [8]byte
		copy(lo[:], rest)
		h[2] += binary.LittleEndian.Uint64(lo[:])
	default:
		h[2] += scConst
		h[3] += scConst
	}
	shortEnd(&h)
	return h[0], h[1]
}

var mixRot = [spookyVars]int{11, 32, 43, 31, 17, 28, 39, 57, 55, 54, 22, 46}
var endRot = [spookyVars]int{44, 15, 34, 21, 38, 33, 10, 13, 38, 53, 42, 54}

func spookyMix(data []byte, s *[spookyVars]uint64) {
	for i, rot := range mixRot {
		s[i] += word64(data, i)
		s[(i+2)%spookyVars] ^= s[(i+10)%spookyVars]
		s[(i+11)%spookyVars] ^= s[i]
		s[i] = bits.RotateLeft64(s[i], rot)
		s[(i+11)%spookyVars] += s[(i+1)%spookyVars]
	}
}

func spookyEndPartial(h *[spookyVars]uint64) {
	for i, rot := range endRot {
		a, b, c := (i+11)%spookyVars, (i+1)%spookyVars, (i+2)%spookyVars
		h[a] += h[b]
		h[c] ^= h[a]
		h[b] = bits.RotateLeft64(h[b], rot)
	}
}

func spooky128(m []byte, s1, s2 uint64) (uint64, uint64) {
	if len(m) < spookyBuf {
		return spookyShort(m, s1, s2)
	}
	var h [spookyVars]uint64
	for i := range h {
		switch i % 3 {
		case 0:
			h[i] = s1
		case 1:
			h[i] = s2
		default:
			h[i] = scConst
		}
	}
	for len(m) >= spookyBlk {
		spookyMix(m[:spookyBlk], &h)
		m = m[spookyBlk:]
	}
	var last [spookyBlk]byte
	copy(last[:], m)
	last[spookyBlk-1] = byte(len(m))
	for i := range h {
		h[i] += word64(last[:], i)
	}
	spookyEndPartial(&h)
	spookyEndPartial(&h)
	spookyEndPartial(&h)
	return h[0], h[1]
}

func spooky32(m []byte, seed uint32) uint32 {
	a, _ := spooky128(m, uint64(seed), uint64(seed))
	return uint32(a)
}
