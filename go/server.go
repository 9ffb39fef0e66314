package ketama

import (
	"fmt"
	"net/netip"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Server is one memcached server as the client is given it.
type Server struct {
	// Label is host:port, [ipv6]:port or host (port 11211); Get returns it.
	Label string
	// Weight counts on profiles that use weights (0 as the profile's zero_weight rule says).
	Weight uint32
	// Name, when not empty, replaces the node string on profiles that hash a name
	// (twemproxy server names, groupcache peer URLs).
	Name string
}

const defaultPort = 11211

type hostKind int

const (
	hostName hostKind = iota
	hostV4
	hostV6
)

// parsed is a Server with its label split as the core splits it.
type parsed struct {
	Server
	host     string
	port     uint16
	explicit bool
	kind     hostKind
	ip       netip.Addr
}

func parseIP(s string) (netip.Addr, hostKind) {
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return netip.Addr{}, hostName
	}
	if a.Is4() {
		return a, hostV4
	}
	return a, hostV6
}

func parsePort(p string) (uint16, bool) {
	if p == "" || p[0] == '0' || len(p) > 5 {
		return 0, false
	}
	v := 0
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return 0, false
		}
		v = v*10 + int(p[i]-'0')
	}
	if v > 65535 {
		return 0, false
	}
	return uint16(v), true
}

// parseServer splits a label: host, host:port, [v6], [v6]:port or a bare IPv6 literal. A
// label or name that is not UTF-8 is ErrInvalidUtf8, as the C library says for the same bytes.
func parseServer(s Server) (parsed, error) {
	l := s.Label
	if !utf8.ValidString(l) || !utf8.ValidString(s.Name) {
		return parsed{}, ErrInvalidUtf8
	}
	ok := l != "" && strings.IndexFunc(l, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == '\uFEFF'
	}) < 0
	if !ok {
		return parsed{}, ErrBadLabel
	}
	out := parsed{Server: s, port: defaultPort}
	host := l
	var port string
	hasPort := false
	if strings.HasPrefix(l, "[") {
		end := strings.IndexByte(l, ']')
		if end < 0 {
			return parsed{}, ErrBadLabel
		}
		host = l[1:end]
		if _, k := parseIP(host); k != hostV6 {
			return parsed{}, ErrBadLabel
		}
		after := l[end+1:]
		if after != "" {
			if !strings.HasPrefix(after, ":") {
				return parsed{}, ErrBadLabel
			}
			port, hasPort = after[1:], true
		}
	} else {
		switch strings.Count(l, ":") {
		case 0:
		case 1:
			i := strings.IndexByte(l, ':')
			host, port, hasPort = l[:i], l[i+1:], true
		default:
			if _, k := parseIP(l); k != hostV6 {
				return parsed{}, ErrBadLabel
			}
		}
	}
	if hasPort {
		p, ok := parsePort(port)
		if !ok {
			return parsed{}, ErrBadLabel
		}
		out.port, out.explicit = p, true
	}
	if host == "" {
		return parsed{}, ErrBadLabel
	}
	out.host = host
	out.ip, out.kind = parseIP(host)
	return out, nil
}

// endpoint identifies a server for duplicate detection (IPv6 literals canonical).
func (s *parsed) endpoint() string {
	if s.kind == hostV6 {
		if s.explicit {
			return fmt.Sprintf("[%s]:%d", s.ip, s.port)
		}
		return "[" + s.ip.String() + "]"
	}
	return s.Label
}

// javaV6 is Java's IPv6 text: 8 lowercase hex groups, no compression.
func javaV6(a netip.Addr) string {
	b := a.As16()
	var sb strings.Builder
	for i := 0; i < 16; i += 2 {
		if i > 0 {
			sb.WriteByte(':')
		}
		fmt.Fprintf(&sb, "%x", uint16(b[i])<<8|uint16(b[i+1]))
	}
	return sb.String()
}

// nodeString is the string the client hashes for a server, the place-th (from 0) of its list.
func nodeString(form nodeForm, s *parsed, names bool, place int) (string, error) {
	switch form {
	case nodeShardPlace:
		return fmt.Sprintf("SHARD-%d", place), nil
	case nodeNameStarWeight:
		name := s.Label
		if names && s.Name != "" {
			name = s.Name
		}
		return fmt.Sprintf("%s*%d", name, s.Weight), nil
	}
	if names && s.Name != "" {
		return s.Name, nil
	}
	hostPort := func(h string) string { return fmt.Sprintf("%s:%d", h, s.port) }
	switch form {
	case nodeHostNulPort:
		return fmt.Sprintf("%s\x00%d", s.host, s.port), nil
	case nodeRedisUrlDb:
		return "redis://" + hostPort(s.host) + "/0", nil
	case nodeRedisUrl:
		if s.kind == hostV6 {
			return fmt.Sprintf("redis://[%s]:%d", s.host, s.port), nil
		}
		return "redis://" + hostPort(s.host), nil
	case nodeIpEndPoint:
		// .NET IPEndPoint.ToString(); a host name needs the address DNS gives it.
		switch s.kind {
		case hostV4:
			return hostPort(s.ip.String()), nil
		case hostV6:
			return fmt.Sprintf("[%s]:%d", s.ip, s.port), nil
		}
		return "", ErrUnsupported
	case nodeLabel, nodeBare:
		return s.Label, nil
	case nodeOmitDefaultPort:
		if s.port == defaultPort {
			return s.host, nil
		}
		return hostPort(s.host), nil
	case nodeSlashLabel:
		return "/" + hostPort(s.host), nil
	case nodeHostPort:
		return hostPort(s.host), nil
	case nodeHostThenPort:
		return fmt.Sprintf("%s%d", s.host, s.port), nil
	case nodeHostSlashHostPort:
		return s.host + "/" + hostPort(s.host), nil
	case nodeJavaEvcache:
		// EVCache writes the port as 11211 whatever it is; a host name needs its address.
		var ip string
		switch s.kind {
		case hostV4:
			ip = s.ip.String()
		case hostV6:
			ip = javaV6(s.ip)
		default:
			return "", ErrUnsupported
		}
		return fmt.Sprintf("%s/%s:%d", ip, ip, defaultPort), nil
	case nodeNginxHostNulPort:
		l := s.Label
		cut := len(strings.TrimRightFunc(l, func(r rune) bool { return r >= '0' && r <= '9' }))
		if strings.HasSuffix(l[:cut], ":") {
			return l[:cut-1] + "\x00" + l[cut:], nil
		}
		return l + "\x00", nil
	case nodeJavaSpy, nodeJavaXmc:
		slash := ""
		if form == nodeJavaXmc {
			slash = "/"
		}
		switch s.kind {
		case hostV4:
			return fmt.Sprintf("%s%s:%d", slash, s.ip, s.port), nil
		case hostV6:
			return fmt.Sprintf("%s[%s]:%d", slash, javaV6(s.ip), s.port), nil
		default:
			return fmt.Sprintf("%s/<unresolved>:%d", s.host, s.port), nil
		}
	case nodeJavaHostNamePort:
		switch s.kind {
		case hostV4:
			return hostPort(s.ip.String()), nil
		case hostV6:
			return hostPort(javaV6(s.ip)), nil
		default:
			return hostPort(s.host), nil
		}
	case nodeJavaNginx, nodeJavaHostName:
		var ip string
		switch s.kind {
		case hostV4:
			ip = s.ip.String()
		case hostV6:
			ip = javaV6(s.ip)
		default:
			if form != nodeJavaHostName {
				return "", ErrUnsupported
			}
			ip = s.host
		}
		if s.port == defaultPort {
			return ip, nil
		}
		return fmt.Sprintf("%s:%d", ip, s.port), nil
	}
	return "", ErrUnsupported
}
