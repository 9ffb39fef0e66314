package ketama

import "fmt"

// Error is one of the core's errors: Name is the name every ketama binding uses
// (spec/errors.json), Message its one-line text. Errors returned by this package are (or
// wrap) the sentinel values of errors_gen.go (ErrEmptyRing, ...), so callers use errors.Is:
//
//	if errors.Is(err, ketama.ErrKeyRejected) { ... }
type Error struct {
	Name    string
	Message string
}

func (e *Error) Error() string { return e.Message }

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
