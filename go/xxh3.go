package ketama

import (
	"encoding/binary"
	"math/bits"
)

// XXH3 64-bit with seed 0 and the default secret (XXH3_64bits), as memcached's proxy
// hashes keys and, through its low 32 bits, ring points.

// xxh3Secret is XXH3's default 192-byte secret (kSecret).
var xxh3Secret = [192]byte{
	0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
	0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
	0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
	0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
	0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
	0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
	0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
	0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
	0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
	0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
	0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
	0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
}

const (
	xxP32_1 = 0x9E3779B1
	xxP32_2 = 0x85EBCA77
	xxP32_3 = 0xC2B2AE3D
	xxP64_1 = 0x9E3779B185EBCA87
	xxP64_2 = 0xC2B2AE3D27D4EB4F
	xxP64_3 = 0x165667B19E3779F9
	xxP64_4 = 0x85EBCA77C2B2AE63
	xxP64_5 = 0x27D4EB2F165667C5
	xxMX1   = 0x165667919E3779F9
	xxMX2   = 0x9FB21C651E98DF25
)

func xxR64(b []byte, at int) uint64 { return binary.LittleEndian.Uint64(b[at:]) }
func xxR32(b []byte, at int) uint32 { return binary.LittleEndian.Uint32(b[at:]) }

// xxFold is the 128-bit product of a and b, its halves XORed.
func xxFold(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

func xx64Avalanche(h uint64) uint64 {
	h ^= h >> 33
	h *= xxP64_2
	h ^= h >> 29
	h *= xxP64_3
	return h ^ h>>32
}

func xx3Avalanche(h uint64) uint64 {
	h ^= h >> 37
	h *= xxMX1
	return h ^ h>>32
}

// xxMix16 mixes 16 input bytes at in[at:] with 16 secret bytes at s (seed 0).
func xxMix16(in []byte, at, s int) uint64 {
	return xxFold(xxR64(in, at)^xxR64(xxh3Secret[:], s), xxR64(in, at+8)^xxR64(xxh3Secret[:], s+8))
}

// xxh3 is XXH3_64bits(key) (seed 0, default secret).
func xxh3(in []byte) uint64 {
	sec := xxh3Secret[:]
	n := len(in)
	switch {
	case n == 0:
		return xx64Avalanche(xxR64(sec, 56) ^ xxR64(sec, 64))
	case n <= 3:
		c := uint32(in[0])<<16 | uint32(in[n>>1])<<24 | uint32(in[n-1]) | uint32(n)<<8
		return xx64Avalanche(uint64(c) ^ uint64(xxR32(sec, 0)^xxR32(sec, 4)))
	case n <= 8:
		v := uint64(xxR32(in, n-4)) + uint64(xxR32(in, 0))<<32
		h := v ^ (xxR64(sec, 8) ^ xxR64(sec, 16))
		h ^= bits.RotateLeft64(h, 49) ^ bits.RotateLeft64(h, 24)
		h *= xxMX2
		h ^= (h >> 35) + uint64(n)
		h *= xxMX2
		return h ^ h>>28
	case n <= 16:
		lo := xxR64(in, 0) ^ (xxR64(sec, 24) ^ xxR64(sec, 32))
		hi := xxR64(in, n-8) ^ (xxR64(sec, 40) ^ xxR64(sec, 48))
		return xx3Avalanche(uint64(n) + bits.ReverseBytes64(lo) + hi + xxFold(lo, hi))
	case n <= 128:
		acc := uint64(n) * xxP64_1
		if n > 32 {
			if n > 64 {
				if n > 96 {
					acc += xxMix16(in, 48, 96) + xxMix16(in, n-64, 112)
				}
				acc += xxMix16(in, 32, 64) + xxMix16(in, n-48, 80)
			}
			acc += xxMix16(in, 16, 32) + xxMix16(in, n-32, 48)
		}
		acc += xxMix16(in, 0, 0) + xxMix16(in, n-16, 16)
		return xx3Avalanche(acc)
	case n <= 240:
		acc := uint64(n) * xxP64_1
		for i := 0; i < 8; i++ {
			acc += xxMix16(in, 16*i, 16*i)
		}
		acc = xx3Avalanche(acc)
		for i := 8; i < n/16; i++ {
			acc += xxMix16(in, 16*i, 16*(i-8)+3)
		}
		acc += xxMix16(in, n-16, 136-17)
		return xx3Avalanche(acc)
	}
	return xxh3Long(in)
}

// xxh3Long is XXH3_64bits for inputs over 240 bytes: eight accumulators over 64-byte
// stripes, scrambled after each 1,024-byte block.
func xxh3Long(in []byte) uint64 {
	sec := xxh3Secret[:]
	acc := [8]uint64{xxP32_3, xxP64_1, xxP64_2, xxP64_3, xxP64_4, xxP32_2, xxP64_5, xxP32_1}
	stripe := func(at, s int) {
		for i := 0; i < 8; i++ {
			v := xxR64(in, at+8*i)
			k := v ^ xxR64(sec, s+8*i)
			acc[i^1] += v
			acc[i] += uint64(uint32(k)) * (k >> 32)
		}
	}
	const stripes = (192 - 64) / 8 // per block
	const block = 64 * stripes
	n := len(in)
	blocks := (n - 1) / block
	for b := 0; b < blocks; b++ {
		for s := 0; s < stripes; s++ {
			stripe(b*block+64*s, 8*s)
		}
		for i := 0; i < 8; i++ {
			a := acc[i]
			a ^= a >> 47
			a ^= xxR64(sec, 192-64+8*i)
			acc[i] = a * xxP32_1
		}
	}
	last := ((n - 1) - block*blocks) / 64
	for s := 0; s < last; s++ {
		stripe(blocks*block+64*s, 8*s)
	}
	stripe(n-64, 192-64-7)
	h := uint64(n) * xxP64_1
	for i := 0; i < 4; i++ {
		h += xxFold(acc[2*i]^xxR64(sec, 11+16*i), acc[2*i+1]^xxR64(sec, 11+16*i+8))
	}
	return xx3Avalanche(h)
}
