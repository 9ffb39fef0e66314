// The Go port's libketama-profile lookup against github.com/dgryski/go-ketama on the same
// ring: 100 servers of weight 1, 10,000 keys cycled. Run with bench/go/run.sh.
package bench

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	goketama "github.com/dgryski/go-ketama"
	ketama "github.com/ketama/ketama/go"
)

const servers = 100

var keys = func() []string {
	out := make([]string, 10000)
	for i := range out {
		out[i] = fmt.Sprintf("user:%d:session", i*7919)
	}
	return out
}()

func rings(tb testing.TB) (*ketama.Ring, *ketama.Ring, *goketama.Continuum) {
	var ours []ketama.Server
	var theirs []goketama.Bucket
	for i := 0; i < servers; i++ {
		label := fmt.Sprintf("10.0.%d.%d:11211", i/250, i%250+1)
		ours = append(ours, ketama.Server{Label: label, Weight: 1})
		theirs = append(theirs, goketama.Bucket{Label: label, Weight: 1})
	}
	lk, err := ketama.New("libketama", "", ours)
	if err != nil {
		tb.Fatal(err)
	}
	gk, err := ketama.New("go-ketama", "", ours)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := goketama.New(theirs)
	if err != nil {
		tb.Fatal(err)
	}
	return lk, gk, c
}

// The two libraries place every benchmark key alike (our go-ketama profile, and the
// libketama profile, which builds the same continuum for equal weights).
func TestSameAnswers(t *testing.T) {
	lk, gk, c := rings(t)
	for _, k := range keys {
		want := c.Hash(k)
		if got, _ := gk.Get(k); got != want {
			t.Fatalf("%s: go-ketama profile %s, go-ketama %s", k, got, want)
		}
		if got, _ := lk.Get(k); got != want {
			t.Fatalf("%s: libketama profile %s, go-ketama %s", k, got, want)
		}
	}
}

var sink string

func BenchmarkKetamaLibketamaGet(b *testing.B) {
	lk, _, _ := rings(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink, _ = lk.Get(keys[i%len(keys)])
	}
}

func BenchmarkGoKetamaHash(b *testing.B) {
	_, _, c := rings(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink = c.Hash(keys[i%len(keys)])
	}
}

// TestRatio (BENCH_RATIO=1, as run.sh sets it) times the two lookups alternately, BENCH_ROUNDS
// times, so both see the same machine load: each round the best pass over the keys of each
// (bestPass, as anchor_test.go times the core), then its ratio, and the median.
func TestRatio(t *testing.T) {
	if os.Getenv("BENCH_RATIO") == "" {
		t.Skip("a benchmark: bench/go/run.sh runs it")
	}
	rounds := 7
	if n, err := strconv.Atoi(os.Getenv("BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	lk, _, c := rings(t)
	const budget = 300 * time.Millisecond
	var ours, theirs, ratios []float64
	for i := 0; i < rounds; i++ {
		on := bestPass(len(keys), budget, func() {
			for _, k := range keys {
				sink, _ = lk.Get(k)
			}
		})
		gn := bestPass(len(keys), budget, func() {
			for _, k := range keys {
				sink = c.Hash(k)
			}
		})
		ours, theirs, ratios = append(ours, on), append(theirs, gn), append(ratios, gn/on)
		fmt.Printf("round %d: ketama %.0f ns/lookup, go-ketama %.0f ns/lookup: %.2fx\n", i+1, on, gn, gn/on)
	}
	allocs := testing.AllocsPerRun(100, func() { sink, _ = lk.Get(keys[7]) })
	theirAllocs := testing.AllocsPerRun(100, func() { sink = c.Hash(keys[7]) })
	fmt.Printf("median: ketama (Go port, libketama profile) %.0f ns (%.0f allocs), go-ketama %.0f ns (%.0f allocs): %.2fx faster\n",
		median(ours), allocs, median(theirs), theirAllocs, median(ratios))
	fmt.Printf("best:   ketama (Go port, libketama profile) %.0f ns, go-ketama %.0f ns: %.2fx faster\n",
		least(ours), least(theirs), least(theirs)/least(ours))
}

func least(x []float64) float64 {
	m := x[0]
	for _, v := range x[1:] {
		if v < m {
			m = v
		}
	}
	return m
}

func median(x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
