package ketama

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// specJSON is spec/profiles.json (this copy is kept equal to it by TestSpecCopyIsCurrent).
//
//go:embed profiles.json
var specJSON []byte

type specDoc struct {
	Schema int `json:"schema"`
	Errors []struct {
		Name    string `json:"name"`
		Message string `json:"message"`
	} `json:"errors"`
	Hashes  []specHash `json:"hashes"`
	Options struct {
		HashTagBytes        int `json:"hash_tag_bytes"`
		PrefixKeyMaxBytes   int `json:"prefix_key_max_bytes"`
		PrefixedKeyMaxBytes int `json:"prefixed_key_max_bytes"`
	} `json:"options"`
	Profiles []specProfile `json:"profiles"`
}

type specHash struct {
	Name        string   `json:"name"`
	Aliases     []string `json:"aliases"`
	Input       string   `json:"input"`
	Description string   `json:"description"`
}

type specProfile struct {
	Name        string   `json:"name"`
	Aliases     []string `json:"aliases"`
	Description string   `json:"description"`
	DefaultHash string   `json:"default_hash"`
	Hashes      []string `json:"hashes"`
	Crc32       *string  `json:"crc32"`
	Node        string   `json:"node"`
	Names       bool     `json:"names"`
	Strings     string   `json:"strings"`
	Count       struct {
		Kind    string `json:"kind"`
		Strings uint32 `json:"strings"`
		Formula string `json:"formula"`
	} `json:"count"`
	Points struct {
		Kind string `json:"kind"`
		Per  int    `json:"per"`
	} `json:"points"`
	Placement struct {
		Kind      string `json:"kind"`
		Bound     string `json:"bound"`
		Weighted  bool   `json:"weighted"`
		High15    bool   `json:"high15"`
		OldCompat bool   `json:"old_compat"`
		Join      string `json:"join"`
		Ties      string `json:"ties"`
	} `json:"placement"`
	Ties       string `json:"ties"`
	ZeroWeight string `json:"zero_weight"`
	Key        struct {
		Kind   string `json:"kind"`
		Bytes  int    `json:"bytes"`
		Prefix string `json:"prefix"`
	} `json:"key"`
	SingleShortcut   bool     `json:"single_shortcut"`
	EmptyKeyRejected []string `json:"empty_key_rejected"`
	KeyLimits        struct {
		Empty  bool   `json:"empty"`
		MaxLen *int   `json:"max_len"`
		Chars  string `json:"chars"`
	} `json:"key_limits"`
	Order    string `json:"order"`
	Failover struct {
		Kind             string `json:"kind"`
		FirstTag         uint32 `json:"first_tag"`
		BoundedByServers bool   `json:"bounded_by_servers"`
		Tries            uint32 `json:"tries"`
	} `json:"failover"`
	Removal string `json:"removal"`
	Options struct {
		HashTag   bool `json:"hash_tag"`
		PrefixKey bool `json:"prefix_key"`
	} `json:"options"`
	IsRing bool `json:"is_ring"`
}

// The knob values a profile is compiled into.
type (
	nodeForm   int
	stringForm int
	countKind  int
	formula    int
	pointKind  int
	placeKind  int
	boundKind  int
	tieRule    int
	zeroRule   int
	keyRule    int
	orderRule  int
)

const (
	nodeLabel nodeForm = iota
	nodeOmitDefaultPort
	nodeSlashLabel
	nodeJavaSpy
	nodeJavaXmc
	nodeJavaNginx
	nodeBare
	nodeJavaHostName
	nodeHostPort
	nodeJavaHostNamePort
	nodeNginxHostNulPort
	nodeHostThenPort
	nodeHostSlashHostPort
	nodeJavaEvcache
)

const (
	strDash stringForm = iota
	strPrefix
	strConcat
	strBare
	strColon
)

const (
	countFixed countKind = iota
	countPerWeight
	countRelative
)

const (
	formulaLibketama formula = iota
	formulaLibmemcached
	formulaNodeHashring
	formulaIntegerDiv
	formulaDalli
	formulaWhalin
)

const (
	pointsMd5Words pointKind = iota
	pointsKeyHash
	pointsJavaKetama
	pointsMd5Wide
	pointsCrc32Chain
	pointsMurmur3Chain
	pointsSha1Word
	pointsXxh3Word
)

const (
	placeRing placeKind = iota
	placePeclBuckets
	placeModula
	placeJavaAbsModulo
	placeFurc
	placeJump
	placeRendezvous
	placeMaglev
	placeHashRendezvous
	placeJumpXxh3
)

const (
	boundLower boundKind = iota
	boundUpper
	boundLowerZeroLast
	boundFloor
	boundFloorWrap
	boundLowerSigned
)

const (
	tiesEarlier tieRule = iota
	tiesLater
	tiesSortedList
)

const (
	zeroAsOne zeroRule = iota
	zeroAsIs
	zeroReject
)

const (
	keyNone keyRule = iota
	keyPeclSanitize
	keyTruncate
	keyDalliDigest
	keyURLEncode
	keyPyBytesRepr
	keyPrefix
)

const (
	orderGiven orderRule = iota
	orderNodeLengthThenBytes
)

// profile is one spec row compiled for lookups.
type profile struct {
	name, description string
	aliases           []string
	defaultHash       string
	hashes            []string
	crc32             string // "" = none
	node              nodeForm
	names             bool
	strings           stringForm
	count             countKind
	countStrings      uint32
	formula           formula
	points            pointKind
	per               int
	place             placeKind
	bound             boundKind
	weighted          bool
	high15            bool
	oldCompat         bool
	ties              tieRule
	zero              zeroRule
	key               keyRule
	truncate          int
	singleShortcut    bool
	emptyRejected     []string
	limitEmpty        bool
	maxLen            int // -1 = none
	order             orderRule
	rehash            bool
	firstTag          uint32
	bounded           bool
	isRing            bool
	optHashTag        bool // the client has twemproxy's hash_tag
	optPrefixKey      bool // the client has libmemcached's key prefix
	families
}

var (
	spec        specDoc
	profiles    []*profile
	hashByName  = map[string]string{} // exact names and aliases -> canonical name
	hashNames   []string              // canonical names, spec order
	specProblem error
)

func init() {
	if err := json.Unmarshal(specJSON, &spec); err != nil {
		specProblem = fmt.Errorf("embedded spec: %w", err)
		return
	}
	for _, h := range spec.Hashes {
		hashNames = append(hashNames, h.Name)
		hashByName[h.Name] = h.Name
		for _, a := range h.Aliases {
			hashByName[a] = h.Name
		}
	}
	for i := range spec.Profiles {
		p, err := compile(&spec.Profiles[i])
		if err != nil {
			specProblem = err
			return
		}
		profiles = append(profiles, p)
	}
}

// pick maps a knob value to its constant, or records the unknown value.
func pick[T any](bad *error, knob, v string, table map[string]T) T {
	t, ok := table[v]
	if !ok && *bad == nil {
		*bad = fmt.Errorf("embedded spec: unknown %s %q", knob, v)
	}
	return t
}

func compile(s *specProfile) (*profile, error) {
	var bad error
	p := &profile{
		name: s.Name, description: s.Description, aliases: s.Aliases,
		defaultHash: s.DefaultHash, hashes: s.Hashes, names: s.Names, singleShortcut: s.SingleShortcut,
		optHashTag: s.Options.HashTag, optPrefixKey: s.Options.PrefixKey,
		emptyRejected: s.EmptyKeyRejected, limitEmpty: s.KeyLimits.Empty,
		maxLen: -1, isRing: s.IsRing,
	}
	if s.Crc32 != nil {
		p.crc32 = *s.Crc32
	}
	if s.KeyLimits.MaxLen != nil {
		p.maxLen = *s.KeyLimits.MaxLen
	}
	p.node = pick(&bad, "node", s.Node, map[string]nodeForm{
		"label": nodeLabel, "omit_default_port": nodeOmitDefaultPort, "slash_label": nodeSlashLabel,
		"java_spy": nodeJavaSpy, "java_xmc": nodeJavaXmc, "java_nginx": nodeJavaNginx,
		"bare": nodeBare, "java_host_name": nodeJavaHostName, "host_port": nodeHostPort,
		"java_host_name_port": nodeJavaHostNamePort, "nginx_host_nul_port": nodeNginxHostNulPort,
		"host_then_port": nodeHostThenPort, "host_slash_host_port": nodeHostSlashHostPort,
		"java_evcache": nodeJavaEvcache,
	})
	p.strings = pick(&bad, "strings", s.Strings, map[string]stringForm{
		"dash": strDash, "prefix": strPrefix, "concat": strConcat, "bare": strBare, "colon": strColon,
	})
	p.count = pick(&bad, "count", s.Count.Kind, map[string]countKind{
		"fixed": countFixed, "per_weight": countPerWeight, "relative": countRelative,
	})
	p.countStrings = s.Count.Strings
	if p.count == countRelative {
		p.formula = pick(&bad, "formula", s.Count.Formula, map[string]formula{
			"libketama": formulaLibketama, "libmemcached": formulaLibmemcached,
			"node_hashring": formulaNodeHashring, "integer_div": formulaIntegerDiv,
			"dalli": formulaDalli, "whalin": formulaWhalin,
		})
	}
	p.points = pick(&bad, "points", s.Points.Kind, map[string]pointKind{
		"md5_words": pointsMd5Words, "key_hash": pointsKeyHash, "java_ketama": pointsJavaKetama,
		"md5_wide": pointsMd5Wide, "crc32_chain": pointsCrc32Chain,
		"murmur3_chain": pointsMurmur3Chain, "sha1_word": pointsSha1Word,
		"xxh3_word": pointsXxh3Word,
	})
	p.per = s.Points.Per
	p.place = pick(&bad, "placement", s.Placement.Kind, map[string]placeKind{
		"ring": placeRing, "pecl_buckets": placePeclBuckets, "modula": placeModula,
		"java_abs_modulo": placeJavaAbsModulo, "furc": placeFurc, "jump": placeJump,
		"rendezvous": placeRendezvous, "maglev": placeMaglev,
		"hash_rendezvous": placeHashRendezvous, "jump_xxh3": placeJumpXxh3,
	})
	if p.place == placeRing {
		p.bound = pick(&bad, "bound", s.Placement.Bound, map[string]boundKind{
			"lower_bound": boundLower, "upper_bound": boundUpper,
			"lower_bound_zero_last": boundLowerZeroLast, "floor": boundFloor,
			"floor_wrap": boundFloorWrap, "lower_bound_signed": boundLowerSigned,
		})
	}
	p.weighted, p.high15, p.oldCompat = s.Placement.Weighted, s.Placement.High15, s.Placement.OldCompat
	p.ties = pick(&bad, "ties", s.Ties, map[string]tieRule{
		"earlier_wins": tiesEarlier, "later_wins": tiesLater, "sorted_list": tiesSortedList,
	})
	p.zero = pick(&bad, "zero_weight", s.ZeroWeight, map[string]zeroRule{
		"as_one": zeroAsOne, "as_is": zeroAsIs, "reject": zeroReject,
	})
	p.key = pick(&bad, "key", s.Key.Kind, map[string]keyRule{
		"none": keyNone, "pecl_sanitize": keyPeclSanitize, "truncate": keyTruncate,
		"dalli_digest": keyDalliDigest, "url_encode": keyURLEncode,
		"py_bytes_repr": keyPyBytesRepr, "prefix": keyPrefix,
	})
	p.truncate = s.Key.Bytes
	p.order = pick(&bad, "order", s.Order, map[string]orderRule{
		"given": orderGiven, "node_length_then_bytes": orderNodeLengthThenBytes,
	})
	switch s.Failover.Kind {
	case "walk":
	case "rehash":
		p.rehash, p.firstTag, p.bounded = true, s.Failover.FirstTag, s.Failover.BoundedByServers
	case "rehash_key", "rehash_key_dash", "rehash_hash", "rehash_key_untried", "stay":
	default:
		if bad == nil {
			bad = fmt.Errorf("embedded spec: unknown failover %q", s.Failover.Kind)
		}
	}
	p.families = compileFamilies(s, &bad)
	// Removal only matters for rings that change; this package builds rings whole.
	if s.Removal != "own_points" && s.Removal != "clears_its_positions" && bad == nil {
		bad = fmt.Errorf("embedded spec: unknown removal %q", s.Removal)
	}
	for _, h := range append(append([]string{s.DefaultHash}, s.Hashes...), s.EmptyKeyRejected...) {
		if _, ok := hashFuncs[h]; !ok && bad == nil {
			bad = fmt.Errorf("embedded spec: profile %s names unknown hash %q", s.Name, h)
		}
	}
	if bad != nil {
		return nil, fmt.Errorf("profile %s: %w", s.Name, bad)
	}
	return p, nil
}

// profileByName finds a profile by name or alias (the first in spec order).
func profileByName(name string) (*profile, error) {
	if specProblem != nil {
		return nil, specProblem
	}
	for _, p := range profiles {
		if p.name == name {
			return p, nil
		}
		for _, a := range p.aliases {
			if a == name {
				return p, nil
			}
		}
	}
	return nil, ErrUnknownProfile
}

// hashFromName resolves a hash name: exact name or client alias, else a case-insensitive
// canonical name; bare "crc32" is ambiguous unless the profile defines it.
func hashFromName(name string, p *profile) (string, error) {
	if name == "crc32" {
		if p != nil && p.crc32 != "" {
			return p.crc32, nil
		}
		return "", ErrAmbiguousHash
	}
	if h, ok := hashByName[name]; ok {
		return h, nil
	}
	for _, h := range hashNames {
		if strings.EqualFold(h, name) {
			return h, nil
		}
	}
	return "", ErrUnknownHash
}

// Profiles lists the profile names in documentation order.
func Profiles() []string {
	out := make([]string, len(profiles))
	for i, p := range profiles {
		out[i] = p.name
	}
	return out
}

// ProfileHashes lists the key hashes the profile's client offers its users, the default
// first (New accepts any hash for any profile).
func ProfileHashes(profile string) ([]string, error) {
	p, err := profileByName(profile)
	if err != nil {
		return nil, err
	}
	return append([]string(nil), p.hashes...), nil
}

// Hashes lists the canonical hash names in documentation order.
func Hashes() []string { return append([]string(nil), hashNames...) }

// HashKey hashes key with the hash function named name (our name or a client's own name,
// e.g. "md5", "KETAMA_HASH", "FNV1A_32_HASH"). Bare "crc32" is ErrAmbiguousHash: use
// "crc" (15-bit) or "crc32a" (IEEE CRC-32).
func HashKey(name string, key []byte) (uint32, error) {
	h, err := hashFromName(name, nil)
	if err != nil {
		return 0, err
	}
	return hashFuncs[h](key), nil
}
