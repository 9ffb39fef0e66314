package ketama

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"math/rand"
	"testing"
)

// The side-by-side MD5 gives crypto/md5's first word for keys of every length a block takes
// and longer ones, in every lane.
func TestMd5LanesEqualCryptoMd5(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for n := 0; n <= 130; n++ {
		var keys [md5Lanes][]byte
		for j := range keys {
			keys[j] = make([]byte, (n+j*17)%131)
			rng.Read(keys[j])
		}
		for used := 1; used <= md5Lanes; used++ {
			var got [md5Lanes]uint32
			md5FirstWords(&keys, used, &got)
			for j := 0; j < used; j++ {
				d := md5.Sum(keys[j])
				if want := binary.LittleEndian.Uint32(d[:4]); got[j] != want {
					t.Fatalf("%d bytes in lane %d of %d: %#x, want %#x", len(keys[j]), j, used, got[j], want)
				}
			}
		}
	}
}

// The batch calls give each key what Index and Get give it, on every profile (the batched
// MD5 path and the others), refused keys included.
func TestManyEqualsOneByOne(t *testing.T) {
	servers := []Server{{Label: "10.0.0.1:11211", Weight: 2}, {Label: "10.0.0.2:11211", Weight: 1}, {Label: "[::1]:11212", Weight: 3}}
	keys := []string{"", " ", "user:{1}:x", string(make([]byte, 300)), "caf\u00e9"}
	for i := 0; i < 41; i++ {
		keys = append(keys, fmt.Sprintf("user:%d:session", i*7919))
	}
	for _, p := range Profiles() {
		for _, fleet := range [][]Server{servers, servers[:1], nil} {
			r, err := New(p, "", fleet)
			if err != nil {
				t.Fatal(p, err)
			}
			idx := r.IndexMany(nil, keys)
			labels := r.GetMany([]string{"x"}, keys)
			if len(idx) != len(keys) || len(labels) != len(keys)+1 || labels[0] != "x" {
				t.Fatalf("%s: %d indexes, %d labels for %d keys", p, len(idx), len(labels), len(keys))
			}
			for j, k := range keys {
				want, err := r.Index(k)
				label, _ := r.Get(k)
				if err != nil {
					want = -1
				}
				if idx[j] != want || labels[j+1] != label {
					t.Errorf("%s, %d servers, key %q: %d %q, one by one %d %q", p, len(fleet), k, idx[j], labels[j+1], want, label)
					break
				}
			}
		}
	}
}

func TestBatchAllocatesNothing(t *testing.T) {
	r, err := New("libketama", "", []Server{{Label: "10.0.0.1:11211", Weight: 1}, {Label: "10.0.0.2:11211", Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"a", "b", "c", "d", "e", "f", "g"}
	labels := make([]string, 0, len(keys))
	idx := make([]int, 0, len(keys))
	if n := testing.AllocsPerRun(100, func() { labels = r.GetMany(labels[:0], keys) }); n != 0 {
		t.Errorf("GetMany: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { idx = r.IndexMany(idx[:0], keys) }); n != 0 {
		t.Errorf("IndexMany: %v allocations", n)
	}
}
