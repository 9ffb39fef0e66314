package ketama

import (
	"crypto/md5"
	"unicode/utf8"
)

// prepare applies the profile's key refusals and rewriting: the bytes the client hashes.
// Only a rewritten key (pecl_sanitize, url_encode, a long dalli key) is a new buffer.
func (r *Ring) prepare(key []byte) ([]byte, error) {
	p := r.prof
	if len(key) == 0 && (p.limitEmpty || r.emptyRejected) {
		return nil, ErrKeyRejected
	}
	if p.maxLen >= 0 && len(key) > p.maxLen {
		return nil, ErrKeyRejected
	}
	if p.blanks {
		for _, b := range key {
			if b <= 0x20 {
				return nil, ErrKeyRejected
			}
		}
	}
	switch p.key {
	case keyTruncate:
		if len(key) > p.truncate {
			return key[:p.truncate], nil
		}
	case keyPeclSanitize:
		n := len(key)
		if n > 250 {
			n = 250
		}
		out := append(make([]byte, 0, n), key[:n]...)
		for i, b := range out {
			if b <= 0x20 {
				out[i] = '_'
			}
		}
		return out, nil
	case keyDalliDigest:
		return dalliDigest(key), nil
	case keyURLEncode:
		return urlEncode(key), nil
	}
	return key, nil
}

// urlEncode is URLEncoder.encode(key, "UTF-8") over the key's bytes.
func urlEncode(key []byte) []byte {
	const hex = "0123456789ABCDEF"
	out := make([]byte, 0, len(key)*3)
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

// dalliDigest shortens a key of more than 250 characters (UTF-8 sequences; a byte outside
// a valid sequence counts one) to its first 212 characters + ":md5:" + the hex MD5.
func dalliDigest(key []byte) []byte {
	const maxChars, keepChars = 250, 212
	keep, chars, at := 0, 0, 0
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
		if chars == keepChars {
			keep = at
		}
		if chars > maxChars {
			break
		}
	}
	if chars <= maxChars {
		return key
	}
	const hex = "0123456789abcdef"
	d := md5.Sum(key)
	out := append(make([]byte, 0, keep+37), key[:keep]...)
	out = append(out, ":md5:"...)
	for _, b := range d {
		out = append(out, hex[b>>4], hex[b&15])
	}
	return out
}
