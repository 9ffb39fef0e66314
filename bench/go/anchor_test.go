// The Go port's single (Get) and batch (GetMany) lookups against the Rust core's
// (locate_index, locate_batch) on the same ring and keys: the libketama profile (md5) over
// the 100 servers of bench_test.go, its 10,000 keys. bench/go/run.sh runs it.
package bench

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	ketama "github.com/ketama/ketama/go"
)

// bestPass is the best ns per key of pass (one pass over n keys) repeated for budget, as
// bench/rust/examples/port_anchor.rs times the core.
func bestPass(n int, budget time.Duration, pass func()) float64 {
	start := time.Now()
	best := 0.0
	for passes := 0; passes < 3 || time.Since(start) < budget; passes++ {
		t := time.Now()
		pass()
		ns := float64(time.Since(t).Nanoseconds()) / float64(n)
		if passes == 0 || ns < best {
			best = ns
		}
	}
	return best
}

// portTimes is the Go port's ns per key of Get, GetMany and IndexMany.
func portTimes(r *ketama.Ring, budget time.Duration) (single, batch, indexes float64) {
	single = bestPass(len(keys), budget, func() {
		for _, k := range keys {
			sink, _ = r.Get(k)
		}
	})
	out := make([]string, 0, len(keys))
	batch = bestPass(len(keys), budget, func() {
		out = r.GetMany(out[:0], keys)
	})
	sink = out[len(out)-1]
	idx := make([]int, 0, len(keys))
	indexes = bestPass(len(keys), budget, func() {
		idx = r.IndexMany(idx[:0], keys)
	})
	return single, batch, indexes
}

// coreTimes runs the core's anchor (bench/rust/examples/port_anchor) once: its single and
// batch ns per key.
func coreTimes(bin string, budget time.Duration) (single, batch float64, err error) {
	out, err := exec.Command(bin, strconv.FormatFloat(budget.Seconds(), 'f', 3, 64)).Output()
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", bin, err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, v, _ := strings.Cut(line, " ")
		x, perr := strconv.ParseFloat(v, 64)
		switch {
		case perr != nil:
			return 0, 0, fmt.Errorf("%s: %q", bin, line)
		case name == "single":
			single = x
		case name == "batch":
			batch = x
		}
	}
	return single, batch, nil
}

func BenchmarkKetamaLibketamaGetMany(b *testing.B) {
	lk, _, _ := rings(b)
	out := make([]string, 0, 1000)
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; done += 1000 {
		start := done % len(keys)
		out = lk.GetMany(out[:0], keys[start:start+1000])
	}
	sink = out[0]
}

// TestCoreRatio (BENCH_CORE=path of port_anchor, as run.sh sets it) measures the core and
// the port alternately, BENCH_ROUNDS times, so both see the same machine load, and prints
// each round's ratios (port ns / core ns: at most 2 for Get, 1.5 for the batch calls is the
// goal) and their medians.
func TestCoreRatio(t *testing.T) {
	bin := os.Getenv("BENCH_CORE")
	if bin == "" {
		t.Skip("a benchmark: bench/go/run.sh runs it")
	}
	rounds := 7
	if n, err := strconv.Atoi(os.Getenv("BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	lk, _, _ := rings(t)
	const budget = 300 * time.Millisecond
	var singles, batches, indexes []float64
	for i := 0; i < rounds; i++ {
		cs, cb, err := coreTimes(bin, budget)
		if err != nil {
			t.Fatal(err)
		}
		gs, gb, gi := portTimes(lk, budget)
		singles, batches, indexes = append(singles, gs/cs), append(batches, gb/cb), append(indexes, gi/cb)
		fmt.Printf("round %d: Get %.0f ns, core locate_index %.0f ns: %.2fx; GetMany %.1f, IndexMany %.1f, core locate_batch %.1f ns/key: %.2fx, %.2fx\n",
			i+1, gs, cs, gs/cs, gb, gi, cb, gb/cb, gi/cb)
	}
	fmt.Printf("median: Go Get / core single %.2fx (goal <= 2); Go GetMany / core batch %.2fx, IndexMany %.2fx (goal <= 1.5)\n",
		median(singles), median(batches), median(indexes))
}
