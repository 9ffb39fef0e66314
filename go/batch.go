// Batch lookups: many keys against one ring, with the answer Index gives each key. Where a
// key's hash is its MD5 and the layout places a 32-bit hash, the keys are hashed md5Lanes at
// a time (md5lanes.go).

package ketama

// md5Batched tells whether the ring's lookups are "MD5 the prepared key, place the 32-bit
// hash" with no shortcut, which batches hash side by side.
func (r *Ring) md5Batched() bool {
	if !r.md5Key || len(r.servers) == 0 || (r.prof.singleShortcut && len(r.servers) == 1) {
		return false
	}
	switch r.prof.layout {
	case layoutSorted, layoutTieRuns, layoutBuckets, layoutJump, layoutRendezvous, layoutMaglev, layoutScaled:
		return true
	case layoutSlots:
		return !r.prof.oldCompat
	}
	return false
}

// IndexMany appends to dst the index of the server each key goes to, in the order of keys,
// and returns the extended slice: -1 for a key Index gives an error for (Index(key) says
// which). It allocates nothing when dst has room for the keys.
func (r *Ring) IndexMany(dst []int, keys []string) []int {
	if !r.md5Batched() {
		for _, k := range keys {
			i, err := r.locate(bytesOf(k))
			if err != nil {
				i = -1
			}
			dst = append(dst, i)
		}
		return dst
	}
	var idx [md5Lanes]int
	for start := 0; start < len(keys); start += md5Lanes {
		chunk := keys[start:]
		if len(chunk) > md5Lanes {
			chunk = chunk[:md5Lanes]
		}
		r.locateLanes(chunk, &idx)
		dst = append(dst, idx[:len(chunk)]...)
	}
	return dst
}

// GetMany appends to dst the label of the server each key goes to, in the order of keys,
// and returns the extended slice: "" for a key Get gives an error for (Get(key) says which).
// It allocates nothing when dst has room for the keys.
func (r *Ring) GetMany(dst []string, keys []string) []string {
	if !r.md5Batched() {
		for _, k := range keys {
			i, err := r.locate(bytesOf(k))
			if err != nil {
				dst = append(dst, "")
				continue
			}
			dst = append(dst, r.labelOf[i])
		}
		return dst
	}
	var idx [md5Lanes]int
	for start := 0; start < len(keys); start += md5Lanes {
		chunk := keys[start:]
		if len(chunk) > md5Lanes {
			chunk = chunk[:md5Lanes]
		}
		r.locateLanes(chunk, &idx)
		for _, i := range idx[:len(chunk)] {
			if i < 0 {
				dst = append(dst, "")
			} else {
				dst = append(dst, r.labelOf[i])
			}
		}
	}
	return dst
}

// locateLanes sets idx[j] to the server index of keys[j] (-1 where locate gives an error),
// for up to md5Lanes keys hashed side by side, on a ring where md5Batched holds.
func (r *Ring) locateLanes(keys []string, idx *[md5Lanes]int) {
	var msgs [md5Lanes][]byte
	var h [md5Lanes]uint32
	if r.keys.plain {
		for j, k := range keys {
			msgs[j], idx[j] = bytesOf(k), 0
			if len(k) > r.keys.maxKey || (len(k) == 0 && r.keys.refuseEmpty) {
				idx[j] = -1
			}
		}
		md5FirstWords(&msgs, len(keys), &h)
	} else {
		var bufs [md5Lanes]*[]byte
		for j, k := range keys {
			m, buf, err := r.prepare(bytesOf(k))
			msgs[j], bufs[j], idx[j] = m, buf, 0
			if err != nil {
				idx[j] = -1
			}
		}
		md5FirstWords(&msgs, len(keys), &h)
		for j := range keys {
			release(bufs[j])
			if msgs[j] == nil && r.opts.HashWithPrefix {
				h[j] = 0 // libmemcached's prefix + key over its limit: not hashed
			}
		}
	}
	for j := range keys {
		if idx[j] < 0 {
			continue
		}
		i, err := r.placeHash(h[j])
		if err != nil {
			i = -1
		}
		idx[j] = i
	}
}
