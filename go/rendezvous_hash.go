package ketama

// hash_rendezvous placement (pymemcache's RendezvousHash, emcache's node_selection): each
// server scores the key hash of one string joining its node string and the prepared key;
// the highest score wins, the profile's score ties rule settles equal scores; weights are
// ignored.

// joinedScore is the key hash of server i's node string joined with the prepared key k.
func (r *Ring) joinedScore(i int, k []byte, buf *[]byte) uint32 {
	node := r.nodes[i]
	b := (*buf)[:0]
	if r.prof.join == joinNodeDashKey {
		b = append(append(append(b, node...), '-'), k...)
	} else {
		b = append(append(b, k...), node...)
	}
	*buf = b
	return r.hash(b)
}

// nodeHash is the key hash of server i's node string alone (built in buf: no allocation).
func (r *Ring) nodeHash(i int, buf *[]byte) uint32 {
	b := append((*buf)[:0], r.nodes[i]...)
	*buf = b
	return r.hash(b)
}

// scoredBest is the server with the highest score for the prepared key k among those not
// in skip (a skipped server is as if it had left the client's list).
func (r *Ring) scoredBest(k []byte, skip []int) (int, error) {
	bp := keyBufs.Get().(*[]byte)
	defer keyBufs.Put(bp)
	best, bestScore := -1, uint32(0)
next:
	for i := range r.servers {
		for _, s := range skip {
			if s == i {
				continue next
			}
		}
		s := r.joinedScore(i, k, bp)
		take := best < 0 || s > bestScore
		if best >= 0 && s == bestScore {
			if r.prof.scoreTies == scoreGreaterNode {
				take = r.nodes[i] > r.nodes[best] // bytewise
			} else {
				take = r.nodeHash(i, bp) > r.nodeHash(best, bp)
			}
		}
		if take {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return 0, ErrNoServer
	}
	return best, nil
}

// scoredN appends to out (holding the primary) the next servers by descending score, up
// to want in all.
func (r *Ring) scoredN(k []byte, out []int, want int) []int {
	for len(out) < want {
		i, err := r.scoredBest(k, out)
		if err != nil {
			break
		}
		out = append(out, i)
	}
	return out
}
