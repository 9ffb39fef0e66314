package ketama

import "bytes"

// Options are a client's placement options: they change which bytes of a key are hashed,
// never the servers' points (the rules and limits: the spec's "options").
type Options struct {
	// HashTag is a hash tag's delimiters (exactly 2 bytes; "" = none): only the tag the
	// client's own rule finds between them is hashed: twemproxy's hash_tag (the non-empty
	// text between the first opening byte and the next closing byte), a Jedis key-tag
	// pattern ("{}" is its default \{(.+?)\}). Twemproxy and Jedis profiles only.
	HashTag string
	// PrefixKey is php-memcached's OPT_PREFIX_KEY (at most 127 bytes, no NUL; "" = none).
	// Libmemcached profiles only; it moves keys only with HashWithPrefix.
	PrefixKey string
	// HashWithPrefix is OPT_HASH_WITH_PREFIX_KEY: hash PrefixKey + key.
	HashWithPrefix bool
}

// WithOptions returns a copy of the ring with these options (r itself is unchanged).
// ErrBadOption when the profile's client lacks one, or refuses its value.
func (r *Ring) WithOptions(o Options) (*Ring, error) {
	lim := spec.Options
	if o.HashTag != "" && (len(o.HashTag) != lim.HashTagBytes || !r.prof.optHashTag) {
		return nil, ErrBadOption
	}
	if len(o.PrefixKey) > lim.PrefixKeyMaxBytes || bytes.IndexByte([]byte(o.PrefixKey), 0) >= 0 {
		return nil, ErrBadOption
	}
	if (o.PrefixKey != "" || o.HashWithPrefix) && !r.prof.optPrefixKey {
		return nil, ErrBadOption
	}
	next := *r
	next.opts = o
	next.settleKeys()
	return &next, nil
}

// Options returns the ring's placement options.
func (r *Ring) Options() Options { return r.opts }

// withPrefix is the key HashWithPrefix makes of an accepted (and tagged) key: PrefixKey +
// key, where every byte of the key after its first NUL is NUL (strncpy). A nil result means
// the client hashes nothing and uses hash 0 (prefix + key over the limit); the profiles
// with the option refuse the empty key before.
func (r *Ring) withPrefix(key []byte) ([]byte, *[]byte) {
	p := r.opts.PrefixKey
	if len(p)+len(key) > spec.Options.PrefixedKeyMaxBytes {
		return nil, nil
	}
	bp := keyBufs.Get().(*[]byte)
	out := append(append((*bp)[:0], p...), key...)
	if z := bytes.IndexByte(key, 0); z >= 0 {
		for i := len(p) + z; i < len(out); i++ {
			out[i] = 0 // strncpy: every byte after the key's first NUL is NUL
		}
	}
	return out, bp
}
