package ketama

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// mcrouter's furc_hash (CH3) and WeightedCh3.

const (
	furcSeed     uint32 = 4193360111
	furcShift    uint32 = 23
	furcMaxTries        = 32
	furcMaxPool         = 1 << furcShift
	furcCache           = 384
	wch3Seed     uint32 = 0xface2014
	wch3Tries           = 32
)

type furcBits struct {
	key    []byte
	words  [furcCache]uint64
	filled int
}

func (b *furcBits) bit(idx uint32) bool {
	ord := int(idx >> 6)
	if ord > furcCache-1 {
		ord = furcCache - 1
	}
	for b.filled <= ord {
		if b.filled == 0 {
			b.words[0] = murmur64a(b.key, furcSeed)
		} else {
			var prev [8]byte
			binary.LittleEndian.PutUint64(prev[:], b.words[b.filled-1])
			b.words[b.filled] = murmur64a(prev[:], furcSeed)
		}
		b.filled++
	}
	return (b.words[ord]>>(idx&63))&1 == 1
}

func furcHash(key []byte, m uint32) uint32 {
	if m <= 1 {
		return 0
	}
	b := furcBits{key: key}
	d := uint32(32 - bits.LeadingZeros32(m-1))
	a := d
	for try := 0; try < furcMaxTries; try++ {
		for !b.bit(a) {
			d--
			if d == 0 {
				return 0
			}
			a = d
		}
		a += furcShift
		num := uint32(1)
		for i := uint32(0); i < d-1; i++ {
			num <<= 1
			if b.bit(a) {
				num |= 1
			}
			a += furcShift
		}
		if num < m {
			return num
		}
	}
	return 0
}

// weightedCh3 draws furc_hash of the key (salted after each refusal with the decimal
// digits of the try number, least significant first) against weights in [0, 1].
func weightedCh3(key []byte, weights []float64) (int, bool) {
	n := len(weights)
	if n == 0 || n > furcMaxPool {
		return 0, false
	}
	for _, w := range weights {
		if !(w >= 0 && w <= 1) {
			return 0, false
		}
	}
	buf := make([]byte, len(key), len(key)+20)
	copy(buf, key)
	index := 0
	for salt := uint64(0); salt < wch3Tries; salt++ {
		index = int(furcHash(buf, uint32(n)))
		p := uint64(spooky32(buf, wch3Seed))
		w := uint64(weights[index] * float64(math.MaxUint32))
		if p < w {
			return index, true
		}
		buf = buf[:len(key)]
		s := salt
		for {
			buf = append(buf, byte('0'+s%10))
			s /= 10
			if s == 0 {
				break
			}
		}
	}
	return index, true
}
