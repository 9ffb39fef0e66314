package ketama

import (
	"crypto/md5"
	"sync"
	"unicode/utf8"
)

// keyBufs holds the scratch buffers of rewritten keys (reused: no allocation per lookup).
var keyBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// release returns a scratch buffer from prepare (nil: none was taken).
func release(b *[]byte) {
	if b != nil {
		keyBufs.Put(b)
	}
}

// keyRules is what the key step of a ring does, decided once (settleKeys): whether its
// client hashes every accepted key as it is, refusing keys by their length alone.
type keyRules struct {
	plain       bool // no character rule, tag, prefix or rewriting applies
	refuseEmpty bool // the empty key is KeyRejected
	maxKey      int  // longer keys are KeyRejected
}

// settleKeys decides the ring's keyRules from its profile, hash and options.
func (r *Ring) settleKeys() {
	p := r.prof
	r.keys = keyRules{refuseEmpty: p.limitEmpty || r.emptyRejected, maxKey: p.maxLen}
	if p.maxLen < 0 {
		r.keys.maxKey = int(^uint(0) >> 1)
	}
	tags := p.tagKind == tagBraces || (p.tagKind == tagConfigured && r.opts.HashTag != "")
	r.keys.plain = p.chars == charsAny && !tags && !r.opts.HashWithPrefix && p.key == keyNone
}

// prepare applies the profile's key refusals, its hash tag, and the libmemcached prefix or
// the key rewriting: the bytes the client hashes. A rewritten key (pecl_sanitize,
// url_encode, a long dalli key, ...) is built in a pooled buffer, returned too: the caller
// hands it to release once it has hashed the key.
func (r *Ring) prepare(key []byte) ([]byte, *[]byte, error) {
	if r.keys.plain {
		if len(key) > r.keys.maxKey || (len(key) == 0 && r.keys.refuseEmpty) {
			return nil, nil, ErrKeyRejected
		}
		return key, nil, nil
	}
	return r.prepareRules(key)
}

// prepareRules is prepare where more than the key's length decides.
func (r *Ring) prepareRules(key []byte) ([]byte, *[]byte, error) {
	p := r.prof
	if len(key) == 0 && (p.limitEmpty || r.emptyRejected) {
		return nil, nil, ErrKeyRejected
	}
	if p.maxLen >= 0 && len(key) > p.maxLen {
		return nil, nil, ErrKeyRejected
	}
	if !p.chars.allows(key) {
		return nil, nil, ErrKeyRejected
	}
	if p.tagKind != tagNone {
		key = r.tagged(key)
	}
	if r.opts.HashWithPrefix {
		k, bp := r.withPrefix(key)
		return k, bp, nil
	}
	switch p.key {
	case keyNone:
		return key, nil, nil
	case keyTruncate:
		if len(key) > p.truncate {
			return key[:p.truncate], nil, nil
		}
		return key, nil, nil
	}
	return r.rewrite(key)
}

// rewrite is the key as the profile's rewriting rule makes it, in a pooled buffer when it
// differs from the key (ErrKeyRejected where the client cannot rewrite it).
func (r *Ring) rewrite(key []byte) ([]byte, *[]byte, error) {
	p := r.prof
	if (p.key == keyDalliDigest && !dalliLong(key)) || (p.key == keyLatin1 && isASCII(key)) {
		return key, nil, nil
	}
	bp := keyBufs.Get().(*[]byte)
	var out []byte
	switch p.key {
	case keyPeclSanitize:
		n := len(key)
		if n > 250 {
			n = 250
		}
		out = append((*bp)[:0], key[:n]...)
		for i, b := range out {
			if b <= 0x20 {
				out[i] = '_'
			}
		}
	case keyDalliDigest:
		out = dalliDigest(key, (*bp)[:0])
	case keyUrlEncode:
		out = urlEncode(key, (*bp)[:0])
	case keyPyBytesRepr:
		out = pyBytesRepr(key, (*bp)[:0])
	case keyPrefix:
		out = append(append((*bp)[:0], p.prefix...), key...)
	case keyLatin1:
		var ok bool
		if out, ok = appendLatin1((*bp)[:0], key); !ok {
			keyBufs.Put(bp)
			return nil, nil, ErrKeyRejected
		}
	}
	if cap(out) > cap(*bp) && cap(out) <= 1<<16 {
		*bp = out[:0] // keep a grown buffer, unless it is huge
	}
	return out, bp, nil
}

// urlEncode is URLEncoder.encode(key, "UTF-8") over the key's bytes.
func urlEncode(key, out []byte) []byte {
	const hex = "0123456789ABCDEF"
	for _, b := range key {
		switch {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9',
			b == '.', b == '-', b == '*', b == '_':
			out = append(out, b)
		case b == ' ':
			out = append(out, '+')
		default:
			out = append(out, '%', hex[b>>4], hex[b&15])
		}
	}
	return out
}

// dalliChars walks the key's characters as Ruby counts them (UTF-8 sequences; a byte
// outside a valid sequence counts one) and returns the byte length of the first keep
// characters and whether the key has more than max characters.
func dalliChars(key []byte, keep, max int) (int, bool) {
	kept, chars, at := 0, 0, 0
	for at < len(key) {
		want := 1
		switch b := key[at]; {
		case b >= 0xc2 && b <= 0xdf:
			want = 2
		case b >= 0xe0 && b <= 0xef:
			want = 3
		case b >= 0xf0 && b <= 0xf4:
			want = 4
		}
		n := 1
		if want > 1 && at+want <= len(key) && utf8.Valid(key[at:at+want]) {
			n = want
		}
		at += n
		chars++
		if chars == keep {
			kept = at
		}
		if chars > max {
			return kept, true
		}
	}
	return kept, false
}

const dalliMaxChars, dalliKeepChars = 250, 212

// dalliLong tells whether dalli shortens the key (more than 250 characters).
func dalliLong(key []byte) bool {
	_, long := dalliChars(key, dalliKeepChars, dalliMaxChars)
	return long
}

// dalliDigest appends to out the shortened form of a long key: its first 212 characters +
// ":md5:" + the hex MD5 of the whole key.
func dalliDigest(key, out []byte) []byte {
	keep, _ := dalliChars(key, dalliKeepChars, dalliMaxChars)
	const hex = "0123456789abcdef"
	d := md5.Sum(key)
	out = append(out, key[:keep]...)
	out = append(out, ":md5:"...)
	for _, b := range d {
		out = append(out, hex[b>>4], hex[b&15])
	}
	return out
}
