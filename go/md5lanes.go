// MD5 of several short keys at once: the keys of a batch that fit one block (at most 55
// bytes) are compressed side by side, each step written once per lane, so the processor
// overlaps the lanes' dependency chains (one MD5 is a chain of 64 dependent steps that
// leaves most execution units idle).

package ketama

import (
	"crypto/md5"
	"encoding/binary"
	"math/bits"
)

// md5Lanes is how many keys a batch prepares and hashes together.
const md5Lanes = 4

// md5MaxOneBlock is the longest message MD5 pads into one 64-byte block.
const md5MaxOneBlock = 55

// MD5's initial state.
const (
	md5A0 uint32 = 0x67452301
	md5B0 uint32 = 0xefcdab89
	md5C0 uint32 = 0x98badcfe
	md5D0 uint32 = 0x10325476
)

// md5K are MD5's additive constants (floor(|sin(i + 1)| * 2^32)).
var md5K = [64]uint32{
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
}

// md5Block is one padded 64-byte block as little-endian words.
type md5Block [16]uint32

// pad makes the one block MD5 hashes for msg (at most md5MaxOneBlock bytes): the message,
// 0x80, zeros, the bit length as a little-endian 64-bit number.
func (x *md5Block) pad(msg []byte) {
	*x = md5Block{}
	n := len(msg)
	w := n >> 2
	for i := 0; i < w; i++ {
		x[i&15] = binary.LittleEndian.Uint32(msg[4*i:])
	}
	// The 0 to 3 bytes after the last whole word, then 0x80.
	last := uint32(0x80)
	switch tail := msg[4*w:]; len(tail) {
	case 1:
		last = 0x8000 | uint32(tail[0])
	case 2:
		last = 0x800000 | uint32(tail[1])<<8 | uint32(tail[0])
	case 3:
		last = 0x80000000 | uint32(tail[2])<<16 | uint32(tail[1])<<8 | uint32(tail[0])
	}
	x[w&15] = last
	x[14] = uint32(n) << 3
}

// md5FirstWords sets out[j] to the ketama hash of keys[j] (the little-endian first word of
// its MD5) for the first n keys: the keys of one block side by side, any longer key alone.
func md5FirstWords(keys *[md5Lanes][]byte, n int, out *[md5Lanes]uint32) {
	var x [md5Lanes]md5Block
	for j := 0; j < n; j++ {
		if len(keys[j]) <= md5MaxOneBlock {
			x[j].pad(keys[j])
		}
	}
	md5Compress4(&x, out)
	for j := 0; j < n; j++ {
		if len(keys[j]) > md5MaxOneBlock {
			d := md5.Sum(keys[j])
			out[j] = binary.LittleEndian.Uint32(d[:4])
		}
	}
}

// The four rounds' steps: b + rotl(round function(b, c, d) + a + x + k, s).
func f1(a, b, c, d, x, k uint32, s int) uint32 {
	return b + bits.RotateLeft32((((c^d)&b)^d)+a+x+k, s)
}

func f2(a, b, c, d, x, k uint32, s int) uint32 {
	return b + bits.RotateLeft32((((b^c)&d)^c)+a+x+k, s)
}

func f3(a, b, c, d, x, k uint32, s int) uint32 {
	return b + bits.RotateLeft32((b^c^d)+a+x+k, s)
}

func f4(a, b, c, d, x, k uint32, s int) uint32 {
	return b + bits.RotateLeft32((c^(b|^d))+a+x+k, s)
}

// md5Compress4 compresses four one-block messages from MD5's initial state and gives each
// digest's first word (the last three steps, which only change the other words, are left
// out). The steps of a round run in a loop (four at a time): unrolled, the compiler keeps
// every message word loaded at once and runs out of registers.
func md5Compress4(x *[md5Lanes]md5Block, out *[md5Lanes]uint32) {
	a0, b0, c0, d0 := md5A0, md5B0, md5C0, md5D0
	a1, b1, c1, d1 := md5A0, md5B0, md5C0, md5D0
	a2, b2, c2, d2 := md5A0, md5B0, md5C0, md5D0
	a3, b3, c3, d3 := md5A0, md5B0, md5C0, md5D0
	// Round 1: F(b, c, d) = d ^ (b & (c ^ d)), word i.
	for i := 0; i < 16; i += 4 {
		k := md5K[i : i+4 : i+4]
		a0 = f1(a0, b0, c0, d0, x[0][i&15], k[0], 7)
		a1 = f1(a1, b1, c1, d1, x[1][i&15], k[0], 7)
		a2 = f1(a2, b2, c2, d2, x[2][i&15], k[0], 7)
		a3 = f1(a3, b3, c3, d3, x[3][i&15], k[0], 7)
		d0 = f1(d0, a0, b0, c0, x[0][(i+1)&15], k[1], 12)
		d1 = f1(d1, a1, b1, c1, x[1][(i+1)&15], k[1], 12)
		d2 = f1(d2, a2, b2, c2, x[2][(i+1)&15], k[1], 12)
		d3 = f1(d3, a3, b3, c3, x[3][(i+1)&15], k[1], 12)
		c0 = f1(c0, d0, a0, b0, x[0][(i+2)&15], k[2], 17)
		c1 = f1(c1, d1, a1, b1, x[1][(i+2)&15], k[2], 17)
		c2 = f1(c2, d2, a2, b2, x[2][(i+2)&15], k[2], 17)
		c3 = f1(c3, d3, a3, b3, x[3][(i+2)&15], k[2], 17)
		b0 = f1(b0, c0, d0, a0, x[0][(i+3)&15], k[3], 22)
		b1 = f1(b1, c1, d1, a1, x[1][(i+3)&15], k[3], 22)
		b2 = f1(b2, c2, d2, a2, x[2][(i+3)&15], k[3], 22)
		b3 = f1(b3, c3, d3, a3, x[3][(i+3)&15], k[3], 22)
	}
	// Round 2: G(b, c, d) = c ^ (d & (b ^ c)), word (5i + 1) mod 16.
	for i := 0; i < 16; i += 4 {
		k := md5K[16+i : 20+i : 20+i]
		a0 = f2(a0, b0, c0, d0, x[0][(5*i+1)&15], k[0], 5)
		a1 = f2(a1, b1, c1, d1, x[1][(5*i+1)&15], k[0], 5)
		a2 = f2(a2, b2, c2, d2, x[2][(5*i+1)&15], k[0], 5)
		a3 = f2(a3, b3, c3, d3, x[3][(5*i+1)&15], k[0], 5)
		d0 = f2(d0, a0, b0, c0, x[0][(5*i+6)&15], k[1], 9)
		d1 = f2(d1, a1, b1, c1, x[1][(5*i+6)&15], k[1], 9)
		d2 = f2(d2, a2, b2, c2, x[2][(5*i+6)&15], k[1], 9)
		d3 = f2(d3, a3, b3, c3, x[3][(5*i+6)&15], k[1], 9)
		c0 = f2(c0, d0, a0, b0, x[0][(5*i+11)&15], k[2], 14)
		c1 = f2(c1, d1, a1, b1, x[1][(5*i+11)&15], k[2], 14)
		c2 = f2(c2, d2, a2, b2, x[2][(5*i+11)&15], k[2], 14)
		c3 = f2(c3, d3, a3, b3, x[3][(5*i+11)&15], k[2], 14)
		b0 = f2(b0, c0, d0, a0, x[0][(5*i+16)&15], k[3], 20)
		b1 = f2(b1, c1, d1, a1, x[1][(5*i+16)&15], k[3], 20)
		b2 = f2(b2, c2, d2, a2, x[2][(5*i+16)&15], k[3], 20)
		b3 = f2(b3, c3, d3, a3, x[3][(5*i+16)&15], k[3], 20)
	}
	// Round 3: H(b, c, d) = b ^ c ^ d, word (3i + 5) mod 16.
	for i := 0; i < 16; i += 4 {
		k := md5K[32+i : 36+i : 36+i]
		a0 = f3(a0, b0, c0, d0, x[0][(3*i+5)&15], k[0], 4)
		a1 = f3(a1, b1, c1, d1, x[1][(3*i+5)&15], k[0], 4)
		a2 = f3(a2, b2, c2, d2, x[2][(3*i+5)&15], k[0], 4)
		a3 = f3(a3, b3, c3, d3, x[3][(3*i+5)&15], k[0], 4)
		d0 = f3(d0, a0, b0, c0, x[0][(3*i+8)&15], k[1], 11)
		d1 = f3(d1, a1, b1, c1, x[1][(3*i+8)&15], k[1], 11)
		d2 = f3(d2, a2, b2, c2, x[2][(3*i+8)&15], k[1], 11)
		d3 = f3(d3, a3, b3, c3, x[3][(3*i+8)&15], k[1], 11)
		c0 = f3(c0, d0, a0, b0, x[0][(3*i+11)&15], k[2], 16)
		c1 = f3(c1, d1, a1, b1, x[1][(3*i+11)&15], k[2], 16)
		c2 = f3(c2, d2, a2, b2, x[2][(3*i+11)&15], k[2], 16)
		c3 = f3(c3, d3, a3, b3, x[3][(3*i+11)&15], k[2], 16)
		b0 = f3(b0, c0, d0, a0, x[0][(3*i+14)&15], k[3], 23)
		b1 = f3(b1, c1, d1, a1, x[1][(3*i+14)&15], k[3], 23)
		b2 = f3(b2, c2, d2, a2, x[2][(3*i+14)&15], k[3], 23)
		b3 = f3(b3, c3, d3, a3, x[3][(3*i+14)&15], k[3], 23)
	}
	// Round 4: I(b, c, d) = c ^ (b | ^d), word 7i mod 16; the first word is final after
	// step 60.
	for i := 0; i < 16; i += 4 {
		k := md5K[48+i : 52+i : 52+i]
		a0 = f4(a0, b0, c0, d0, x[0][(7*i)&15], k[0], 6)
		a1 = f4(a1, b1, c1, d1, x[1][(7*i)&15], k[0], 6)
		a2 = f4(a2, b2, c2, d2, x[2][(7*i)&15], k[0], 6)
		a3 = f4(a3, b3, c3, d3, x[3][(7*i)&15], k[0], 6)
		if i == 12 {
			break
		}
		d0 = f4(d0, a0, b0, c0, x[0][(7*i+7)&15], k[1], 10)
		d1 = f4(d1, a1, b1, c1, x[1][(7*i+7)&15], k[1], 10)
		d2 = f4(d2, a2, b2, c2, x[2][(7*i+7)&15], k[1], 10)
		d3 = f4(d3, a3, b3, c3, x[3][(7*i+7)&15], k[1], 10)
		c0 = f4(c0, d0, a0, b0, x[0][(7*i+14)&15], k[2], 15)
		c1 = f4(c1, d1, a1, b1, x[1][(7*i+14)&15], k[2], 15)
		c2 = f4(c2, d2, a2, b2, x[2][(7*i+14)&15], k[2], 15)
		c3 = f4(c3, d3, a3, b3, x[3][(7*i+14)&15], k[2], 15)
		b0 = f4(b0, c0, d0, a0, x[0][(7*i+21)&15], k[3], 21)
		b1 = f4(b1, c1, d1, a1, x[1][(7*i+21)&15], k[3], 21)
		b2 = f4(b2, c2, d2, a2, x[2][(7*i+21)&15], k[3], 21)
		b3 = f4(b3, c3, d3, a3, x[3][(7*i+21)&15], k[3], 21)
	}
	out[0] = a0 + md5A0
	out[1] = a1 + md5A0
	out[2] = a2 + md5A0
	out[3] = a3 + md5A0
}
