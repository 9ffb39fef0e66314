// Bucket oracle for the Go references: reads "input buckets" lines (unsigned 64-bit decimal
// input) on stdin and prints the real package's bucket, one per line.
//
//	oracle jump     -> github.com/dgryski/go-jump Hash(input, buckets)
//	oracle maglev   -> github.com/dgryski/go-maglev New(["backend-0".."backend-(N-1)"], SmallM).Lookup(input)
//	oracle mpchash  -> github.com/dgryski/go-mpchash New(["shard-1".."shard-N"], siphash64seed, {1, 2}, 21).Hash(decimal input)
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/dchest/siphash"
	jump "github.com/dgryski/go-jump"
	maglev "github.com/dgryski/go-maglev"
	mpchash "github.com/dgryski/go-mpchash"
)

// The hash go-mpchash's own compatibility test passes to New.
func siphash64seed(b []byte, s uint64) uint64 { return siphash.Hash(s, 0, b) }

func main() {
	algorithm := os.Args[1]
	maglevs := map[int]*maglev.Table{}
	mpcs := map[int]*mpchash.Multi{}
	mpcIndex := map[string]int{}
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) != 2 {
			continue
		}
		input, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			panic(err)
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			panic(err)
		}
		var b int
		switch algorithm {
		case "jump":
			b = int(jump.Hash(input, n))
		case "maglev":
			t, ok := maglevs[n]
			if !ok {
				names := make([]string, n)
				for i := range names {
					names[i] = fmt.Sprintf("backend-%d", i)
				}
				t = maglev.New(names, maglev.SmallM)
				maglevs[n] = t
			}
			b = t.Lookup(input)
		case "mpchash":
			m, ok := mpcs[n]
			if !ok {
				names := make([]string, n)
				for i := range names {
					names[i] = fmt.Sprintf("shard-%d", i+1)
					mpcIndex[names[i]] = i
				}
				m = mpchash.New(names, siphash64seed, [2]uint64{1, 2}, 21)
				mpcs[n] = m
			}
			name := m.Hash(strconv.FormatUint(input, 10))
			i, ok := mpcIndex[name]
			if !ok {
				panic("go-mpchash returned no shard for " + f[0])
			}
			b = i
		default:
			panic("unknown algorithm " + algorithm)
		}
		fmt.Fprintln(out, b)
	}
	if err := in.Err(); err != nil {
		panic(err)
	}
}
