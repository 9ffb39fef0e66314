// Package ketama (import path github.com/ketama/ketama/go/gomemcache) plugs ketama's
// client-exact key placement into github.com/bradfitz/gomemcache: NewServerSelector returns a
// memcache.ServerSelector that sends each key where the chosen client (php-memcached,
// spymemcached, twemproxy, ...) sends it, so a Go service reads the keys that client wrote.
//
//	import ketama "github.com/ketama/ketama/go/gomemcache"
//
//	sel, err := ketama.NewServerSelector("php-memcached", "", []ketama.Server{
//		{Label: "10.0.0.1:11211", Weight: 1}, {Label: "10.0.0.2:11211", Weight: 1},
//	})
//	mc := memcache.NewFromSelector(sel)
//
// It lives in its own module so that the core package depends on nothing.
package ketama

import (
	"fmt"
	"net"
	"strings"
	"sync/atomic"

	"github.com/bradfitz/gomemcache/memcache"
	core "github.com/ketama/ketama/go"
)

// Server is the core package's Server (label, weight, optional name).
type Server = core.Server

// ServerSelector is a memcache.ServerSelector placing keys by a ketama profile. It is safe
// for concurrent use; SetServers replaces the fleet atomically.
type ServerSelector struct {
	profile, hash string
	state         atomic.Pointer[state]
}

type state struct {
	ring  *core.Ring
	addrs []net.Addr // by server index
}

var _ memcache.ServerSelector = (*ServerSelector)(nil)

// NewServerSelector builds a selector for profile and hash ("" = the profile's default) over
// servers (labels host:port, [ipv6]:port or host; a label containing "/" is a Unix socket).
func NewServerSelector(profile, hash string, servers []Server) (*ServerSelector, error) {
	s := &ServerSelector{profile: profile, hash: hash}
	if err := s.SetServers(servers); err != nil {
		return nil, err
	}
	return s, nil
}

// staticAddr is a resolved address kept as text (PickServer returns it without allocating).
type staticAddr struct{ network, str string }

func (a *staticAddr) Network() string { return a.network }
func (a *staticAddr) String() string  { return a.str }

// resolve turns a label into the address gomemcache dials (port 11211 when none is given).
func resolve(label string) (net.Addr, error) {
	if strings.Contains(label, "/") {
		a, err := net.ResolveUnixAddr("unix", label)
		if err != nil {
			return nil, err
		}
		return &staticAddr{a.Network(), a.String()}, nil
	}
	hostport := label
	if _, _, err := net.SplitHostPort(label); err != nil {
		host := strings.TrimSuffix(strings.TrimPrefix(label, "["), "]")
		hostport = net.JoinHostPort(host, "11211")
	}
	a, err := net.ResolveTCPAddr("tcp", hostport)
	if err != nil {
		return nil, err
	}
	return &staticAddr{a.Network(), a.String()}, nil
}

// SetServers replaces the fleet (nothing changes when it fails).
func (s *ServerSelector) SetServers(servers []Server) error {
	r, err := core.New(s.profile, s.hash, servers)
	if err != nil {
		return err
	}
	addrs := make([]net.Addr, len(servers))
	for i, sv := range servers {
		if addrs[i], err = resolve(sv.Label); err != nil {
			return fmt.Errorf("server %q: %w", sv.Label, err)
		}
	}
	s.state.Store(&state{ring: r, addrs: addrs})
	return nil
}

// PickServer returns the server the profile's client picks for key (memcache.ErrNoServers
// on an empty fleet; core.ErrKeyRejected for a key the client refuses).
func (s *ServerSelector) PickServer(key string) (net.Addr, error) {
	st := s.state.Load()
	if st == nil || st.ring.Len() == 0 {
		return nil, memcache.ErrNoServers
	}
	i, err := st.ring.Index(key)
	if err != nil {
		return nil, err
	}
	return st.addrs[i], nil
}

// Each calls f on every server, in the order given.
func (s *ServerSelector) Each(f func(net.Addr) error) error {
	st := s.state.Load()
	if st == nil {
		return nil
	}
	for _, a := range st.addrs {
		if err := f(a); err != nil {
			return err
		}
	}
	return nil
}
