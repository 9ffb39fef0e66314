package ketama

import "fmt"

// Error is one of the core's errors: Name is the name every ketama binding uses
// (spec/profiles.json "errors"), Message its one-line text. Errors returned by this
// package are (or wrap) the sentinel values below, so callers use errors.Is:
//
//	if errors.Is(err, ketama.ErrKeyRejected) { ... }
type Error struct {
	Name    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// The core's error vocabulary.
var (
	ErrEmptyRing        = &Error{"EmptyRing", "the ring has no servers"}
	ErrNoServer         = &Error{"NoServer", "no server owns this key"}
	ErrUnknownProfile   = &Error{"UnknownProfile", "unknown profile name"}
	ErrUnknownHash      = &Error{"UnknownHash", "unknown hash name"}
	ErrAmbiguousHash    = &Error{"AmbiguousHash", "ambiguous hash name 'crc32': use 'crc' (15-bit, libhashkit/Java/twemproxy) or 'crc32a' (full CRC-32, PHP/pecl/Go)"}
	ErrBadWeight        = &Error{"BadWeight", "weight not accepted by this profile"}
	ErrDuplicateServer  = &Error{"DuplicateServer", "a server with this label is already on the ring"}
	ErrMissingServer    = &Error{"MissingServer", "no server with this label is on the ring"}
	ErrBadLabel         = &Error{"BadLabel", "bad server label (expected host:port, [ipv6]:port or host)"}
	ErrKeyRejected      = &Error{"KeyRejected", "this client refuses the key"}
	ErrUnsupported      = &Error{"Unsupported", "this profile cannot place this server"}
	ErrTooManyPoints    = &Error{"TooManyPoints", "too many points for one continuum (the limit is 8388608 = 2^23 points)"}
	ErrBadFactor        = &Error{"BadFactor", "the capacity factor must be a fraction >= 1 (e.g. 125/100)"}
	ErrFixedPoints      = &Error{"FixedPoints", "a ring from explicit points takes no changes: build a new one"}
	ErrNotAContinuum    = &Error{"NotAContinuum", "this profile does not place keys on a continuum of 32-bit points"}
	ErrNeedsKey         = &Error{"NeedsKey", "this profile places keys from the key itself: a key hash alone cannot place one"}
	ErrBadLoads         = &Error{"BadLoads", "the loads must have one entry per server"}
	ErrTooManyServers   = &Error{"TooManyServers", "too many servers for this client (mcrouter takes at most 8388608 = 2^23)"}
	ErrUnknownAlgorithm = &Error{"UnknownAlgorithm", "unknown bucket algorithm (expected jump, guava, jumpback, fliphash, maglev-go or mpchash-go)"}
	ErrZeroBuckets      = &Error{"ZeroBuckets", "the bucket count must be at least 1"}
	ErrTooManyBuckets   = &Error{"TooManyBuckets", "too many buckets for this algorithm (jump, guava, jumpback, fliphash: 2147483647; maglev-go: 65537; mpchash-go: 65536)"}
	ErrNoBucket         = &Error{"NoBucket", "the reference implementation returns no bucket for this input"}
	ErrBadOption        = &Error{"BadOption", "option not accepted: hash_tag (twemproxy profiles) is exactly 2 bytes, prefix_key (libmemcached profiles) 1..127 bytes without NUL"}
)

// allErrors lists the vocabulary in the spec's order (checked against the spec by a test).
var allErrors = []*Error{
	ErrEmptyRing, ErrNoServer, ErrUnknownProfile, ErrUnknownHash, ErrAmbiguousHash,
	ErrBadWeight, ErrDuplicateServer, ErrMissingServer, ErrBadLabel, ErrKeyRejected,
	ErrUnsupported, ErrTooManyPoints, ErrBadFactor, ErrFixedPoints, ErrNotAContinuum,
	ErrNeedsKey, ErrBadLoads, ErrTooManyServers, ErrUnknownAlgorithm, ErrZeroBuckets,
	ErrTooManyBuckets, ErrNoBucket, ErrBadOption,
}

// ServerError says which server (by its index in the list given to New) a build refused.
// It unwraps to the sentinel error, so errors.Is(err, ErrBadLabel) holds.
type ServerError struct {
	Index int
	Label string
	Err   *Error
}

func (e *ServerError) Error() string {
	return fmt.Sprintf("server %d (%q): %s", e.Index+1, e.Label, e.Err.Message)
}

// Unwrap returns the sentinel error.
func (e *ServerError) Unwrap() error { return e.Err }
