// Hash tags: the part of a key a client hashes instead of the whole key, found by each
// client's own rule between an opening and a closing delimiter; and the latin-1 rewrite of a
// key (redis-shard).

package ketama

import (
	"bytes"
	"unicode/utf8"
)

// tagged is the key as the profile's tag step leaves it: the tag the rule finds between the
// client's braces, or between the ring's hash_tag delimiters where the client takes them;
// the whole key when there is no tag.
func (r *Ring) tagged(key []byte) []byte {
	switch r.prof.tagKind {
	case tagBraces:
		return r.prof.tagRule.tag(key, '{', '}')
	case tagConfigured:
		if t := r.opts.HashTag; t != "" {
			return r.prof.tagRule.tag(key, t[0], t[1])
		}
	}
	return key
}

// tag is what the rule hashes of key with the delimiters o and c: its tag, or the whole key
// when the rule finds none.
func (rule tagRule) tag(key []byte, o, c byte) []byte {
	var found []byte
	ok := false
	switch rule {
	case ruleFirstNonEmpty:
		found, ok = firstTag(key, o, c)
		ok = ok && len(found) > 0
	case ruleFirstUpToNul:
		text := key
		if z := bytes.IndexByte(key, 0); z >= 0 {
			text = key[:z]
		}
		found, ok = firstTag(text, o, c)
	case ruleLineStart:
		found, ok = lineStartTag(key, o, c)
	case ruleGreedyLast:
		found, ok = greedyLastTag(key, o, c)
	case ruleLazyFind:
		found, ok = lazyFindTag(key, o, c)
	}
	if !ok {
		return key
	}
	return found
}

// firstTag: the first o, then the first c after it; the bytes between (maybe none).
func firstTag(key []byte, o, c byte) ([]byte, bool) {
	open := bytes.IndexByte(key, o)
	if open < 0 {
		return nil, false
	}
	end := bytes.IndexByte(key[open+1:], c)
	if end < 0 {
		return nil, false
	}
	return key[open+1 : open+1+end], true
}

// lazyFrom: from the o at p, at least one byte, then the bytes up to the first c, failing
// where endsLine says a line ends (at the rest of the key) before that c.
func lazyFrom(key []byte, p int, c byte, endsLine func([]byte) bool) ([]byte, bool) {
	start := p + 1
	if start >= len(key) || endsLine(key[start:]) {
		return nil, false
	}
	for q := start + 1; q < len(key); q++ {
		if endsLine(key[q:]) {
			return nil, false
		}
		if key[q] == c {
			return key[start:q], true
		}
	}
	return nil, false
}

func startsNewline(rest []byte) bool { return rest[0] == '\n' }

// lineStartTag is Ruby's /^o(.+?)c/: an o at the start of a line, then at least one byte
// and up to the first c, none of them \n; the first line start that matches.
func lineStartTag(key []byte, o, c byte) ([]byte, bool) {
	for p, b := range key {
		if b == o && (p == 0 || key[p-1] == '\n') {
			if t, ok := lazyFrom(key, p, c, startsNewline); ok {
				return t, true
			}
		}
	}
	return nil, false
}

// greedyLastTag is Python's re.match('.*o(.*)c.*'): within the first line, the bytes
// between the last o that has a c after it and the last c (maybe none).
func greedyLastTag(key []byte, o, c byte) ([]byte, bool) {
	line := key
	if n := bytes.IndexByte(key, '\n'); n >= 0 {
		line = key[:n]
	}
	end := bytes.LastIndexByte(line, c)
	if end < 0 {
		return nil, false
	}
	open := bytes.LastIndexByte(line[:end], o)
	if open < 0 {
		return nil, false
	}
	return line[open+1 : end], true
}

// lazyFindTag is Java's Pattern.compile("o(.+?)c").matcher(key).find(): the first o
// followed by at least one character and a c, with no Java line terminator in between.
func lazyFindTag(key []byte, o, c byte) ([]byte, bool) {
	for p, b := range key {
		if b == o {
			if t, ok := lazyFrom(key, p, c, javaLineTerminator); ok {
				return t, true
			}
		}
	}
	return nil, false
}

// javaLineTerminator tells whether rest starts with a character Java's . does not match:
// \n, \r, U+0085, U+2028 or U+2029 (in UTF-8).
func javaLineTerminator(rest []byte) bool {
	switch {
	case rest[0] == '\n', rest[0] == '\r':
		return true
	case len(rest) >= 2 && rest[0] == 0xC2 && rest[1] == 0x85:
		return true
	case len(rest) >= 3 && rest[0] == 0xE2 && rest[1] == 0x80 && (rest[2] == 0xA8 || rest[2] == 0xA9):
		return true
	}
	return false
}

// appendLatin1 appends the characters of UTF-8 text as one latin-1 byte each
// (str.encode('iso-8859-1')); false when text is not UTF-8 or has a character above U+00FF.
func appendLatin1(out, text []byte) ([]byte, bool) {
	for len(text) > 0 {
		c, n := utf8.DecodeRune(text) // an invalid byte is U+FFFD, also refused
		if c > 0xFF {
			return out, false
		}
		out = append(out, byte(c))
		text = text[n:]
	}
	return out, true
}

// isASCII tells whether every byte is below 0x80 (latin-1 leaves such text as it is).
func isASCII(text []byte) bool {
	for _, b := range text {
		if b >= 0x80 {
			return false
		}
	}
	return true
}
