package ketama

import "fmt"

// The knobs of the Python clients (pymemcache, Django, emcache, python-memcached), the
// memcached proxy, the Redis clients' hash tags and the clients' own dead-server rules, as
// spec/profiles.json names them.

// families holds a profile's values for these knobs.
type families struct {
	chars     keyChars
	join      joinRule
	scoreTies scoreTies
	prefix    string // key "prefix": the bytes put in front of every key
	fail      failRule
	tries     int // rehash_key / rehash_hash / rehash_sum: lookups in all, the first included
	tagKind   tagKind
	tagRule   tagRule // the rule finding a tag (tagBraces, tagConfigured)
}

// compileFamilies reads the knobs of families from a spec row (an unknown value sets *bad).
func compileFamilies(s *specProfile, bad *error) families {
	var f families
	f.chars = pick[keyChars](bad, "key_limits.chars", s.KeyLimits.Chars, keyCharsNames)
	if s.Placement.Kind == "hash_rendezvous" {
		f.join = pick[joinRule](bad, "placement.join", s.Placement.Join, joinRuleNames)
		f.scoreTies = pick[scoreTies](bad, "placement.ties", s.Placement.Ties, scoreTiesNames)
	}
	f.prefix = s.Key.Prefix
	f.tagKind = pick[tagKind](bad, "key_tag", s.KeyTag.Kind, tagKindNames)
	if f.tagKind != tagNone {
		f.tagRule = pick[tagRule](bad, "key_tag.rule", s.KeyTag.Rule, tagRuleNames)
	}
	f.fail = pick[failRule](bad, "failover", s.Failover.Kind, failRuleNames)
	switch f.fail {
	case failRehashKey, failRehashKeyDash, failRehashHash, failRehashSum:
		f.tries = int(s.Failover.Tries)
		if f.tries < 1 && *bad == nil {
			*bad = fmt.Errorf("embedded spec: failover %s needs tries >= 1", s.Failover.Kind)
		}
	}
	return f
}

// allows tells whether a key passes the rule.
func (c keyChars) allows(key []byte) bool {
	switch c {
	case charsSpaceNewlineNul:
		for _, b := range key {
			if b == ' ' || b == '\n' || b == '\r' || b == 0 {
				return false
			}
		}
	case charsControls:
		for _, b := range key {
			if b <= 0x20 {
				return false
			}
		}
	case charsControlsDel:
		for _, b := range key {
			if b <= 0x20 || b == 0x7f {
				return false
			}
		}
	case charsPyWhitespace, charsPyWhitespaceAscii:
		// No NUL, (for the ASCII rule) no byte >= 0x80, and ASCII whitespace only in a key
		// made of nothing else (Python's key.split() is then empty and passes the check).
		spaces, others := 0, 0
		for _, b := range key {
			switch {
			case b == 0, b >= 0x80 && c == charsPyWhitespaceAscii:
				return false
			case b == ' ', b >= '\t' && b <= '\r':
				spaces++
			default:
				others++
			}
		}
		return spaces == 0 || others == 0
	case charsPythonMemcached:
		// A regex $ also matches before one final newline.
		if n := len(key); n > 0 && key[n-1] == '\n' {
			key = key[:n-1]
		}
		if len(key) == 0 {
			return false
		}
		for _, b := range key {
			if b <= 0x20 || b == 0x7f {
				return false
			}
		}
	}
	return true
}

// pyBytesRepr appends Python's repr() of a bytes key (what an f-string prints): b and a
// quote (' , or " when the key holds ' and no "), each byte with \\, the quote, \t, \n and
// \r escaped, other bytes below 0x20 or from 0x7f as \xhh, the quote again.
func pyBytesRepr(key, out []byte) []byte {
	const hex = "0123456789abcdef"
	quote := byte('\'')
	single, double := false, false
	for _, b := range key {
		single = single || b == '\''
		double = double || b == '"'
	}
	if single && !double {
		quote = '"'
	}
	out = append(out, 'b', quote)
	for _, b := range key {
		switch {
		case b == '\\' || b == quote:
			out = append(out, '\\', b)
		case b == '\t':
			out = append(out, '\\', 't')
		case b == '\n':
			out = append(out, '\\', 'n')
		case b == '\r':
			out = append(out, '\\', 'r')
		case b >= 0x20 && b <= 0x7e:
			out = append(out, b)
		default:
			out = append(out, '\\', 'x', hex[b>>4], hex[b&15])
		}
	}
	return append(out, quote)
}
