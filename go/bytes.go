package ketama

import "unsafe"

// stringHeader is the runtime layout of a string (pointer, length).
type stringHeader struct {
	data unsafe.Pointer
	len  int
}

// bytesOf views a string's bytes without copying them.
//
// SAFETY: the view is only read (hashing, comparisons, copying into scratch buffers) and
// never outlives the call it is made for, so the string's immutability is kept. The header
// layout is the runtime's (unsafe.StringData needs Go 1.20; this module supports 1.19, the
// Debian toolchain).
func bytesOf(s string) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)((*stringHeader)(unsafe.Pointer(&s)).data), len(s))
}
