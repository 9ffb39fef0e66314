module ketama-oracles/buckets

go 1.20

require (
	github.com/dchest/siphash v1.2.3
	github.com/dgryski/go-jump v0.0.0-20170409065014-e1f439676b57
	github.com/dgryski/go-maglev v0.0.0-20200611225407-8961b9b1b8e6
	github.com/dgryski/go-mpchash v0.0.0-20200819201138-7382f34c4cd1
)

// The Go module proxy refuses these two (403 "not available"); generate.sh lays their pinned
// commits (8961b9b1b8e6..., 7382f34c4cd1...) here from a git checkout. Nothing is committed.
replace github.com/dgryski/go-maglev => ../../.cache/buckets/go-maglev

replace github.com/dgryski/go-mpchash => ../../.cache/buckets/go-mpchash
