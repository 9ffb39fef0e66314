// The 64-bit key hashes (MurmurHash64A for Jedis, XXH64 for go-redis) and the 32-bit hashes
// derived from a CRC-32 or FNV-1a state (phpredis, Enyim).

package ketama

import (
	"encoding/binary"
	"hash/crc32"
	"math/bits"
)

// hash64Func is a key hash's 64 bits.
type hash64Func func(key []byte) uint64

// hash64Funcs are the hashes whose 64 bits a profile reads (key_hash64 points,
// mix_rendezvous); as a 32-bit hash (hashFuncs) each gives its high 32 bits.
var hash64Funcs = map[string]hash64Func{
	"murmur64a": func(k []byte) uint64 { return murmur64a(k, jedisSeed) },
	"xxh64":     func(k []byte) uint64 { return xxh64(k, 0) },
}

// hash64Of is the 64-bit form of the named hash: its 64 bits for a 64-bit hash, else its
// 32-bit value zero-extended.
func hash64Of(name string) hash64Func {
	if f, ok := hash64Funcs[name]; ok {
		return f
	}
	h := hashFuncs[name]
	return func(k []byte) uint64 { return uint64(h(k)) }
}

// crc32Raw is the CRC-32 state without its final inversion (phpredis: ~crc32).
func crc32Raw(k []byte) uint32 { return ^crc32.ChecksumIEEE(k) }

// fnv1a32Zero is FNV-1a 32 over unsigned bytes from the state 0 instead of the offset basis
// (Enyim's first point string).
func fnv1a32Zero(k []byte) uint32 { return fnvBytes(k, false, fnv1a, 0, prime32) }

// jedisSeed is Jedis's MurmurHash64A seed (Hashing.MURMUR_HASH).
const jedisSeed uint32 = 0x1234ABCD

// murmur64a is MurmurHash64A (Jedis's key hash, mcrouter's furc bits): 8-byte little-endian
// blocks, the 1..7 tail bytes read as one zero-padded little-endian word.
func murmur64a(k []byte, seed uint32) uint64 {
	const m, r = 0xc6a4a7935bd1e995, 47
	h := uint64(seed) ^ uint64(len(k))*m
	for ; len(k) >= 8; k = k[8:] {
		w := binary.LittleEndian.Uint64(k)
		w *= m
		w ^= w >> r
		w *= m
		h ^= w
		h *= m
	}
	if len(k) > 0 {
		var tail [8]byte
		copy(tail[:], k)
		h ^= binary.LittleEndian.Uint64(tail[:])
		h *= m
	}
	h ^= h >> r
	h *= m
	return h ^ h>>r
}

// XXH64's primes.
const (
	xxP1 uint64 = 11400714785074694791
	xxP2 uint64 = 14029467366897019727
	xxP3 uint64 = 1609587929392839161
	xxP4 uint64 = 9650029242287828579
	xxP5 uint64 = 2870177450012600261
)

func xxRound(acc, in uint64) uint64 { return bits.RotateLeft64(acc+in*xxP2, 31) * xxP1 }

func xxMerge(acc, v uint64) uint64 { return (acc^xxRound(0, v))*xxP1 + xxP4 }

// xxh64 is XXH64 of k with seed.
func xxh64(k []byte, seed uint64) uint64 {
	n := uint64(len(k))
	var h uint64
	if len(k) >= 32 {
		v1, v2, v3, v4 := seed+xxP1+xxP2, seed+xxP2, seed, seed-xxP1
		for ; len(k) >= 32; k = k[32:] {
			v1 = xxRound(v1, binary.LittleEndian.Uint64(k))
			v2 = xxRound(v2, binary.LittleEndian.Uint64(k[8:]))
			v3 = xxRound(v3, binary.LittleEndian.Uint64(k[16:]))
			v4 = xxRound(v4, binary.LittleEndian.Uint64(k[24:]))
		}
		h = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) + bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
		h = xxMerge(xxMerge(xxMerge(xxMerge(h, v1), v2), v3), v4)
	} else {
		h = seed + xxP5
	}
	h += n
	for ; len(k) >= 8; k = k[8:] {
		h ^= xxRound(0, binary.LittleEndian.Uint64(k))
		h = bits.RotateLeft64(h, 27)*xxP1 + xxP4
	}
	if len(k) >= 4 {
		h ^= uint64(binary.LittleEndian.Uint32(k)) * xxP1
		h = bits.RotateLeft64(h, 23)*xxP2 + xxP3
		k = k[4:]
	}
	for _, b := range k {
		h ^= uint64(b) * xxP5
		h = bits.RotateLeft64(h, 11) * xxP1
	}
	h ^= h >> 33
	h *= xxP2
	h ^= h >> 29
	h *= xxP3
	return h ^ h>>32
}
