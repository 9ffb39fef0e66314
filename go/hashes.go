package ketama

import (
	"crypto/md5"
	"crypto/sha1"
	"encoding/binary"
	"hash/crc32"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// hashFunc is a key hash: 32 bits of the client's function over the key's bytes.
type hashFunc func(key []byte) uint32

// hashFuncs implements every hash of spec/profiles.json by its name (a test checks that
// each spec hash has one and each one is in the spec).
var hashFuncs = map[string]hashFunc{
	"one_at_a_time":          func(k []byte) uint32 { return oneAtATime(k, true) },
	"one_at_a_time_unsigned": func(k []byte) uint32 { return oneAtATime(k, false) },
	"md5":                    md5Ketama,
	"election":               md5Ketama,
	"crc":                    func(k []byte) uint32 { return (crc32.ChecksumIEEE(k) >> 16) & 0x7fff },
	"crc32a":                 crc32.ChecksumIEEE,
	"crc16":                  crc16,
	"fnv1_64":                func(k []byte) uint32 { return fnvBytes(k, true, fnv1, basis64Low, prime64Low) },
	"fnv1a_64":               func(k []byte) uint32 { return fnvBytes(k, true, fnv1a, basis64Low, prime64Low) },
	"fnv1_32":                func(k []byte) uint32 { return fnvBytes(k, true, fnv1, basis32, prime32) },
	"fnv1a_32":               func(k []byte) uint32 { return fnvBytes(k, true, fnv1a, basis32, prime32) },
	"fnv1_64_unsigned":       func(k []byte) uint32 { return fnvBytes(k, false, fnv1, basis64Low, prime64Low) },
	"fnv1a_64_unsigned":      func(k []byte) uint32 { return fnvBytes(k, false, fnv1a, basis64Low, prime64Low) },
	"fnv1_32_unsigned":       func(k []byte) uint32 { return fnvBytes(k, false, fnv1, basis32, prime32) },
	"fnv1a_32_unsigned":      func(k []byte) uint32 { return fnvBytes(k, false, fnv1a, basis32, prime32) },
	"java_fnv1_64":           func(k []byte) uint32 { return fnvUnits(k, fnv1, basis64Low, prime64Low) },
	"java_fnv1a_64":          func(k []byte) uint32 { return fnvUnits(k, fnv1a, basis64Low, prime64Low) },
	"java_fnv1_32":           func(k []byte) uint32 { return fnvUnits(k, fnv1, basis32, prime32) },
	"java_fnv1a_32":          func(k []byte) uint32 { return fnvUnits(k, fnv1a, basis32, prime32) },
	"hsieh":                  func(k []byte) uint32 { return hsieh(k, true) },
	"hsieh_unsigned":         func(k []byte) uint32 { return hsieh(k, false) },
	"murmur":                 murmur2,
	"murmur3":                func(k []byte) uint32 { return murmur3x86(k, 0xDEADBEEF*uint32(len(k))) },
	"jenkins":                jenkins,
	"native":                 func(k []byte) uint32 { return javaNative(k) },
	"mysql":                  func(k []byte) uint32 { return javaMysql(k) },
	"elf":                    func(k []byte) uint32 { return javaElf(k) },
	"rs":                     func(k []byte) uint32 { return javaRs(k) },
	"lua":                    func(k []byte) uint32 { return javaLua(k) },
	"md5_be":                 func(k []byte) uint32 { d := md5.Sum(k); return binary.BigEndian.Uint32(d[:4]) },
	"seed_tohash":            seedToHash,
	"sha1":                   sha1Word,
	"murmur3_32":             func(k []byte) uint32 { return murmur3x86(k, 0) },
	"spooky32":               func(k []byte) uint32 { return spooky32(k, 0) },
	"pymemcache_murmur3":     pymemcacheMurmur3,
	"emcache_murmur3":        emcacheMurmur3,
	"xxh3":                   func(k []byte) uint32 { return uint32(xxh3(k)) },
	"crc32_raw":              crc32Raw,
	"murmur64a":              func(k []byte) uint32 { return uint32(murmur64a(k, jedisSeed) >> 32) },
	"xxh64":                  func(k []byte) uint32 { return uint32(xxh64(k, 0) >> 32) },
	"fnv1a_32_zero":          fnv1a32Zero,
}

// md5Ketama is ketama's MD5 hash: the little-endian word of digest bytes 0..4.
func md5Ketama(k []byte) uint32 {
	d := md5.Sum(k)
	return binary.LittleEndian.Uint32(d[:4])
}

// sha1Word is the big-endian first word of the SHA-1 digest.
func sha1Word(k []byte) uint32 {
	d := sha1.Sum(k)
	return binary.BigEndian.Uint32(d[:4])
}

// seedToHash is toHash of the user's PHP FlexiHash class (profile flexihash-seed): the first
// 8 hex digits of the MD5 folded as h = 31 h + digit (every other digit: the high nibble of
// each of the first 4 bytes).
func seedToHash(k []byte) uint32 {
	const hex = "0123456789abcdef"
	d := md5.Sum(k)
	var h uint32
	for _, b := range d[:4] {
		h = h*31 + uint32(hex[b>>4])
	}
	return h & 0x7FFFFFFF
}

// widen reads a byte as x86 C does (signed char, sign-extended) or unsigned.
func widen(b byte, signed bool) uint32 {
	if signed {
		return uint32(int32(int8(b)))
	}
	return uint32(b)
}

func oneAtATime(k []byte, signed bool) uint32 {
	var h uint32
	for _, b := range k {
		h += widen(b, signed)
		h += h << 10
		h ^= h >> 6
	}
	h += h << 3
	h ^= h >> 11
	return h + h<<15
}

const (
	basis32    uint32 = 0x811C9DC5
	prime32    uint32 = 0x01000193
	basis64Low uint32 = 0x84222325
	prime64Low uint32 = 0x1b3
	fnv1              = false
	fnv1a             = true
)

// fnvBytes is FNV-1 or FNV-1a (a) over bytes; the 64-bit variants keep the low word, which
// only depends on the low words of the basis and prime.
func fnvBytes(k []byte, signed, a bool, basis, prime uint32) uint32 {
	h := basis
	for _, b := range k {
		x := widen(b, signed)
		if a {
			h = (h ^ x) * prime
		} else {
			h = h*prime ^ x
		}
	}
	return h
}

func fnvUnits(k []byte, a bool, basis, prime uint32) uint32 {
	h := basis
	it := units{k: k}
	for u, ok := it.next(); ok; u, ok = it.next() {
		x := uint32(u)
		if a {
			h = (h ^ x) * prime
		} else {
			h = h*prime ^ x
		}
	}
	return h
}

// units iterates the UTF-16 code units of the key decoded as Java's new String(bytes,
// UTF_8): each maximal invalid subsequence becomes one U+FFFD; characters outside the BMP
// give a surrogate pair. It allocates nothing.
type units struct {
	k      []byte
	low    uint16
	hasLow bool
}

func (u *units) next() (uint16, bool) {
	if u.hasLow {
		u.hasLow = false
		return u.low, true
	}
	if len(u.k) == 0 {
		return 0, false
	}
	r, n := utf8.DecodeRune(u.k)
	if r == utf8.RuneError && n <= 1 {
		n = invalidRun(u.k)
	}
	u.k = u.k[n:]
	if r >= 0x10000 {
		a, b := utf16.EncodeRune(r)
		u.low, u.hasLow = uint16(b), true
		return uint16(a), true
	}
	return uint16(r), true
}

// invalidRun is the length of the maximal prefix of k that starts a UTF-8 sequence but does
// not complete it (at least 1), as Rust's utf8_chunks and the WHATWG decoder split it.
func invalidRun(k []byte) int {
	b := k[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case b >= 0xC2 && b <= 0xDF:
		need = 1
	case b == 0xE0:
		need, lo = 2, 0xA0
	case b >= 0xE1 && b <= 0xEC, b == 0xEE, b == 0xEF:
		need = 2
	case b == 0xED:
		need, hi = 2, 0x9F
	case b == 0xF0:
		need, lo = 3, 0x90
	case b >= 0xF1 && b <= 0xF3:
		need = 3
	case b == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	i := 1
	for ; i <= need && i < len(k); i++ {
		c := k[i]
		if i == 1 {
			if c < lo || c > hi {
				return i
			}
		} else if c < 0x80 || c > 0xBF {
			return i
		}
	}
	return i
}

func crc16(k []byte) uint32 {
	var c uint32
	for _, b := range k {
		c = (c << 8) ^ xmodem[((c>>8)^uint32(b))&0xff]
	}
	return c
}

var xmodem = func() (t [256]uint32) {
	for i := range t {
		c := uint32(i) << 8
		for k := 0; k < 8; k++ {
			if c&0x8000 != 0 {
				c = (c << 1) ^ 0x1021
			} else {
				c <<= 1
			}
		}
		t[i] = c & 0xFFFF
	}
	return
}()

func le16(p []byte) uint32 { return uint32(p[0]) | uint32(p[1])<<8 }

// hsieh is SuperFastHash with initial value 0; signedTail reads the third byte of a 3-byte
// tail as x86 signed char.
func hsieh(k []byte, signedTail bool) uint32 {
	if len(k) == 0 {
		return 0
	}
	var h uint32
	for len(k) >= 4 {
		h += le16(k)
		t := (le16(k[2:]) << 11) ^ h
		h = (h << 16) ^ t
		h += h >> 11
		k = k[4:]
	}
	switch len(k) {
	case 3:
		h += le16(k)
		h ^= h << 16
		h ^= widen(k[2], signedTail) << 18
		h += h >> 11
	case 2:
		h += le16(k)
		h ^= h << 11
		h += h >> 17
	case 1:
		h += uint32(k[0])
		h ^= h << 10
		h += h >> 1
	}
	h ^= h << 3
	h += h >> 5
	h ^= h << 4
	h += h >> 17
	h ^= h << 25
	return h + h>>6
}

// tailWord is the little-endian value of up to 3 tail bytes.
func tailWord(t []byte) uint32 {
	var v uint32
	for i := len(t) - 1; i >= 0; i-- {
		v = v<<8 | uint32(t[i])
	}
	return v
}

// murmur2 is libhashkit's MurmurHash2 with seed 0xDEADBEEF * len.
func murmur2(k []byte) uint32 {
	const m = 0x5bd1e995
	h := (0xDEADBEEF * uint32(len(k))) ^ uint32(len(k))
	for len(k) >= 4 {
		x := binary.LittleEndian.Uint32(k) * m
		x ^= x >> 24
		x *= m
		h = h*m ^ x
		k = k[4:]
	}
	if len(k) > 0 {
		h = (h ^ tailWord(k)) * m
	}
	h ^= h >> 13
	h *= m
	return h ^ h>>15
}

func murmur3x86(k []byte, seed uint32) uint32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	n := uint32(len(k))
	h := seed
	for len(k) >= 4 {
		x := binary.LittleEndian.Uint32(k)
		h ^= bits.RotateLeft32(x*c1, 15) * c2
		h = bits.RotateLeft32(h, 13)*5 + 0xe6546b64
		k = k[4:]
	}
	if len(k) > 0 {
		h ^= bits.RotateLeft32(tailWord(k)*c1, 15) * c2
	}
	h ^= n
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	return h ^ h>>16
}

// jenkins is lookup3 hashlittle(key, len, 13).
func jenkins(k []byte) uint32 {
	rot := bits.RotateLeft32
	a := 0xDEADBEEF + uint32(len(k)) + 13
	b, c := a, a
	word := func(p []byte) uint32 { return tailWordN(p) }
	for len(k) > 12 {
		a += word(k[0:4])
		b += word(k[4:8])
		c += word(k[8:12])
		a -= c
		a ^= rot(c, 4)
		c += b
		b -= a
		b ^= rot(a, 6)
		a += c
		c -= b
		c ^= rot(b, 8)
		b += a
		a -= c
		a ^= rot(c, 16)
		c += b
		b -= a
		b ^= rot(a, 19)
		a += c
		c -= b
		c ^= rot(b, 4)
		b += a
		k = k[12:]
	}
	if len(k) == 0 {
		return c
	}
	part := func(lo int) uint32 {
		if lo >= len(k) {
			return 0
		}
		hi := lo + 4
		if hi > len(k) {
			hi = len(k)
		}
		return word(k[lo:hi])
	}
	a += part(0)
	b += part(4)
	c += part(8)
	c ^= b
	c -= rot(b, 14)
	a ^= c
	a -= rot(c, 11)
	b ^= a
	b -= rot(a, 25)
	c ^= b
	c -= rot(b, 16)
	a ^= c
	a -= rot(c, 4)
	b ^= a
	b -= rot(a, 14)
	c ^= b
	return c - rot(b, 24)
}

// tailWordN is the little-endian value of up to 4 bytes, zero-padded.
func tailWordN(p []byte) uint32 {
	var v uint32
	for i := len(p) - 1; i >= 0; i-- {
		v = v<<8 | uint32(p[i])
	}
	return v
}

func javaNative(k []byte) uint32 {
	var h uint32
	it := units{k: k}
	for u, ok := it.next(); ok; u, ok = it.next() {
		h = h*31 + uint32(u)
	}
	return h
}

func javaMysql(key []byte) uint32 {
	var h uint32
	k := uint32(4)
	it := units{k: key}
	for u, ok := it.next(); ok; u, ok = it.next() {
		h ^= ((h&63)+k)*uint32(u) + h<<8
		k += 3
	}
	return h
}

func javaElf(k []byte) uint32 {
	var h uint32
	it := units{k: k}
	for u, ok := it.next(); ok; u, ok = it.next() {
		h = (h << 4) + uint32(u)
		g := h & 0xF0000000
		if g != 0 {
			h ^= g >> 24
		}
		h &^= g
	}
	return h & 0x7FFFFFFF
}

func javaRs(k []byte) uint32 {
	var h uint32
	a := uint32(63689)
	it := units{k: k}
	for u, ok := it.next(); ok; u, ok = it.next() {
		h = h*a + uint32(u)
		a *= 378551
	}
	return h & 0x7FFFFFFF
}

// javaLua is Lua's string hash in signed 64-bit arithmetic, reading every step-th unit
// from the end (step = n/32 + 1): a first pass counts the units, a second keeps the (at
// most 33) read ones on the stack, folded from the last.
func javaLua(k []byte) uint32 {
	var n int64
	it := units{k: k}
	for _, ok := it.next(); ok; _, ok = it.next() {
		n++
	}
	step := (n >> 5) + 1
	var picked [40]uint16
	count := 0
	it = units{k: k}
	var i int64
	for u, ok := it.next(); ok; u, ok = it.next() {
		i++ // 1-based: the loop reads units i-1 for i = n, n-step, ... while i >= step
		if i >= step && (n-i)%step == 0 && count < len(picked) {
			picked[count] = u
			count++
		}
	}
	h := n
	for j := count - 1; j >= 0; j-- {
		h ^= (h << 5) + (h >> 2) + int64(picked[j])
	}
	return uint32(h)
}

// whalinOldCompat is whalin's OLD_COMPAT_HASH: h = 33 h + unit in a wrapping signed long.
func whalinOldCompat(k []byte) int64 {
	var h int64
	it := units{k: k}
	for u, ok := it.next(); ok; u, ok = it.next() {
		h = h*33 + int64(u)
	}
	return h
}
