package ketama

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// pymemcacheMurmur3 is pymemcache's pure-Python murmur3_32(s, seed 0): MurmurHash3_x86_32
// over the characters of the str whose UTF-8 encoding is key, each read as ord(c) & 0xFF,
// the character count as the length. A byte outside a valid UTF-8 sequence stands for
// itself (surrogateescape decoding gives U+DC80..U+DCFF, whose low byte is the byte).
func pymemcacheMurmur3(key []byte) uint32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	var h, n, word uint32
	fill := uint(0)
	for len(key) > 0 {
		b := key[0]
		size := 1
		if b >= utf8.RuneSelf {
			r, sz := utf8.DecodeRune(key)
			if r != utf8.RuneError || sz > 1 {
				b, size = byte(r), sz
			}
		}
		key = key[size:]
		word |= uint32(b) << (8 * fill)
		fill++
		n++
		if fill == 4 {
			h ^= bits.RotateLeft32(word*c1, 15) * c2
			h = bits.RotateLeft32(h, 13)*5 + 0xe6546b64
			word, fill = 0, 0
		}
	}
	if fill > 0 {
		h ^= bits.RotateLeft32(word*c1, 15) * c2
	}
	h ^= n
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	return h ^ h>>16
}

// murmur3x64128 is MurmurHash3_x64_128 of key with a 32-bit seed: the two 64-bit halves
// (the reference writes h1 then h2, each little-endian).
func murmur3x64128(key []byte, seed uint32) (uint64, uint64) {
	const c1, c2 = 0x87c37b91114253d5, 0x4cf5ad432745937f
	h1, h2 := uint64(seed), uint64(seed)
	n := uint64(len(key))
	for len(key) >= 16 {
		k1 := binary.LittleEndian.Uint64(key)
		k2 := binary.LittleEndian.Uint64(key[8:])
		h1 ^= bits.RotateLeft64(k1*c1, 31) * c2
		h1 = (bits.RotateLeft64(h1, 27)+h2)*5 + 0x52dce729
		h2 ^= bits.RotateLeft64(k2*c2, 33) * c1
		h2 = (bits.RotateLeft64(h2, 31)+h1)*5 + 0x38495ab5
		key = key[16:]
	}
	le := func(t []byte) (v uint64) {
		for i := len(t) - 1; i >= 0; i-- {
			v = v<<8 | uint64(t[i])
		}
		return v
	}
	if len(key) > 8 {
		h2 ^= bits.RotateLeft64(le(key[8:])*c2, 33) * c1
	}
	if len(key) > 0 {
		lo := key
		if len(lo) > 8 {
			lo = lo[:8]
		}
		h1 ^= bits.RotateLeft64(le(lo)*c1, 31) * c2
	}
	h1 ^= n
	h2 ^= n
	h1 += h2
	h2 += h1
	h1, h2 = fmix64(h1), fmix64(h2)
	h1 += h2
	h2 += h1
	return h1, h2
}

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	return k ^ k>>33
}

// emcacheMurmur3 is emcache's _hash: over the MurmurHash3_x64_128 (seed 0) output bytes
// out[0..4], (<char>out[3] & mask << 24) | (<char>out[2] & mask << 16) |
// (<char>out[1] & mask << 8) | <char>out[0] & mask. << binds tighter than & and char is
// signed: each byte is sign-extended and masked with 0xFFFFFFFF << 8i.
func emcacheMurmur3(key []byte) uint32 {
	h1, _ := murmur3x64128(key, 0)
	sx := func(i uint) uint32 { return uint32(int32(int8(byte(h1 >> (8 * i))))) }
	return sx(3)&0xFF000000 | sx(2)&0xFFFF0000 | sx(1)&0xFFFFFF00 | sx(0)
}
