package ketama

import "fmt"

// The knobs of the Python clients (pymemcache, Django, emcache, python-memcached), the
// memcached proxy and the clients' own dead-server rules, as spec/profiles.json names them.

// keyChars is which bytes a client refuses anywhere in a key (spec key_limits.chars).
type keyChars int

const (
	charsAny               keyChars = iota // any byte
	charsControls                          // no byte 0x00..=0x20 (folsom)
	charsControlsDel                       // no byte 0x00..=0x20 or 0x7f (emcache, Django)
	charsPyWhitespace                      // pymemcache with Unicode or bytes keys
	charsPyWhitespaceASCII                 // pymemcache's default: also ASCII only
	charsPythonMemcached                   // python-memcached's [\x21-\x7e\x80-\xff]+$
)

// joinRule is how a hash_rendezvous client joins a node string S and a key K.
type joinRule int

const (
	joinNodeDashKey joinRule = iota // S-K (pymemcache)
	joinKeyNode                     // KS (emcache)
)

// scoreTies is who wins equal hash_rendezvous scores.
type scoreTies int

const (
	scoreGreaterNode     scoreTies = iota // the greater node string (bytewise)
	scoreGreaterNodeHash                  // the greater hash of the node string, then the earlier server
)

// failRule is the client's failover sequence when it is not a walk or a continuum rehash.
type failRule int

const (
	failDefault          failRule = iota // walk / rehash: handled by Ring.failover
	failRehashKey                        // lookup t >= 1 hashes str(t-1) + key (dalli)
	failRehashKeyDash                    // lookup t >= 1 hashes key + "-" + str(t-1) (pecl memcache)
	failRehashHash                       // h(t+1) = H(str(h(t)) + str(t)) (python-memcached)
	failRehashKeyUntried                 // str(t) + key from t = 0 until an untried server (whalin)
	failStay                             // the client keeps its pick (emcache)
)

// families holds a profile's values for these knobs.
type families struct {
	chars     keyChars
	join      joinRule
	scoreTies scoreTies
	prefix    string // key "prefix": the bytes put in front of every key
	fail      failRule
	tries     int // rehash_key / rehash_hash: lookups in all, the first included
}

// compileFamilies reads the knobs of families from a spec row (an unknown value sets *bad).
func compileFamilies(s *specProfile, bad *error) families {
	var f families
	f.chars = pick(bad, "key_limits.chars", s.KeyLimits.Chars, map[string]keyChars{
		"any": charsAny, "controls": charsControls, "controls_del": charsControlsDel,
		"py_whitespace": charsPyWhitespace, "py_whitespace_ascii": charsPyWhitespaceASCII,
		"python_memcached": charsPythonMemcached,
	})
	if s.Placement.Kind == "hash_rendezvous" {
		f.join = pick(bad, "placement.join", s.Placement.Join, map[string]joinRule{
			"node_dash_key": joinNodeDashKey, "key_node": joinKeyNode,
		})
		f.scoreTies = pick(bad, "placement.ties", s.Placement.Ties, map[string]scoreTies{
			"greater_node": scoreGreaterNode, "greater_node_hash": scoreGreaterNodeHash,
		})
	}
	f.prefix = s.Key.Prefix
	switch s.Failover.Kind {
	case "rehash_key", "rehash_key_dash", "rehash_hash":
		f.fail, f.tries = failRehashKey, int(s.Failover.Tries)
		switch s.Failover.Kind {
		case "rehash_hash":
			f.fail = failRehashHash
		case "rehash_key_dash":
			f.fail = failRehashKeyDash
		}
		if f.tries < 1 && *bad == nil {
			*bad = fmt.Errorf("embedded spec: failover %s needs tries >= 1", s.Failover.Kind)
		}
	case "rehash_key_untried":
		f.fail = failRehashKeyUntried
	case "stay":
		f.fail = failStay
	}
	return f
}

// allows tells whether a key passes the rule.
func (c keyChars) allows(key []byte) bool {
	switch c {
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
	case charsPyWhitespace, charsPyWhitespaceASCII:
		// No NUL, (for the ASCII rule) no byte >= 0x80, and ASCII whitespace only in a key
		// made of nothing else (Python's key.split() is then empty and passes the check).
		spaces, others := 0, 0
		for _, b := range key {
			switch {
			case b == 0, b >= 0x80 && c == charsPyWhitespaceASCII:
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
