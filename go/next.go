// The servers after the primary: the next distinct servers in the order the client's
// structure yields them.

package ketama

// locateN is up to n distinct servers for key, primary first.
func (r *Ring) locateN(key []byte, n int) ([]int, error) {
	first, err := r.locate(key)
	if err != nil {
		return nil, err
	}
	want := n
	if want > len(r.servers) {
		want = len(r.servers)
	}
	if want < 0 {
		want = 0
	}
	out := make([]int, 0, want)
	if want <= 0 {
		return out, nil
	}
	out = append(out, first)
	k, buf, _ := r.prepare(key)
	defer release(buf)
	push := func(i int) {
		for _, x := range out {
			if x == i {
				return
			}
		}
		out = append(out, i)
	}
	switch {
	case r.prof.isRing && len(r.values) > 0:
		start := r.startOf(k)
		m := len(r.values)
		back := r.prof.bound == boundFloor || r.prof.bound == boundFloorWrap
		// A client keeping its points in a map (later wins) holds only each tie's winner:
		// every point of a run of equal positions is the winner's, the first of the run.
		later := r.prof.ties == tiesLaterWins
		for step := 0; step < m && len(out) < want; step++ {
			p := (start + step) % m
			if back {
				p = (start + m - step%m) % m
			}
			if later {
				p = r.firstOfRun(p)
			}
			push(int(r.owners[p]))
		}
	case r.prof.place == placeHashRendezvous:
		out = r.scoredN(k, out, want)
	case r.prof.layout == layoutMixed:
		h := r.hash64(k)
		for len(out) < want {
			i, err := r.mixedBest(h, out)
			if err != nil {
				break
			}
			out = append(out, i)
		}
	case r.prof.place == placeRendezvous:
		h := r.keyHash(k)
		for len(out) < want {
			i, err := r.rendezvousBest(h, out)
			if err != nil {
				break
			}
			out = append(out, i)
		}
	default:
		for step := 1; step < len(r.servers) && len(out) < want; step++ {
			push((first + step) % len(r.servers))
		}
	}
	return out, nil
}
