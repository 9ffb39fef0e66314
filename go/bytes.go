package ketama

import "unsafe"

// bytesOf views a string's bytes without copying them.
//
// SAFETY: the view is only read (hashing, comparisons, copying into scratch buffers) and
// never outlives the call it is made for, so the string's immutability is kept.
func bytesOf(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
