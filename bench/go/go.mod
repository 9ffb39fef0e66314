module ketama-bench/go

go 1.19

require (
	github.com/dgryski/go-ketama v0.0.0
	github.com/ketama/ketama/go v0.0.0
)

replace (
	// dgryski/go-ketama is not served by the Go module proxy: run.sh unpacks its pinned commit
	// here from a local clone (never committed).
	github.com/dgryski/go-ketama => ./.cache/go-ketama
	github.com/ketama/ketama/go => ../../go
)
