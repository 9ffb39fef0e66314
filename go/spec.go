package ketama

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
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
	KeyTag struct {
		Kind string `json:"kind"`
		Rule string `json:"rule"`
	} `json:"key_tag"`
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
	Layout struct {
		Kind  string  `json:"kind"`
		Bound *string `json:"bound"`
	} `json:"layout"`
	IsRing bool `json:"is_ring"`
}

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
	layout            layoutKind // core's resolved shape: what building and lookups dispatch on
	bound             boundKind  // the continuum's search bound (0 without a continuum)
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

// pick maps a knob value to its constant (names holds the constants' names by value, as
// knobs_gen.go writes them), or records the unknown value.
func pick[T ~int](bad *error, knob, v string, names []string) T {
	for i, n := range names {
		if i > 0 && n == v {
			return T(i)
		}
	}
	if *bad == nil {
		*bad = fmt.Errorf("embedded spec: unknown %s %q", knob, v)
	}
	return 0
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
	p.node = pick[nodeForm](&bad, "node", s.Node, nodeFormNames)
	p.strings = pick[stringForm](&bad, "strings", s.Strings, stringFormNames)
	p.count = pick[countKind](&bad, "count", s.Count.Kind, countKindNames)
	p.countStrings = s.Count.Strings
	if p.count == countRelative {
		p.formula = pick[formula](&bad, "formula", s.Count.Formula, formulaNames)
	}
	p.points = pick[pointKind](&bad, "points", s.Points.Kind, pointKindNames)
	p.per = s.Points.Per
	p.place = pick[placeKind](&bad, "placement", s.Placement.Kind, placeKindNames)
	p.layout = pick[layoutKind](&bad, "layout", s.Layout.Kind, layoutKindNames)
	if s.Layout.Bound != nil {
		p.bound = pick[boundKind](&bad, "bound", *s.Layout.Bound, boundKindNames)
	}
	p.weighted, p.high15, p.oldCompat = s.Placement.Weighted, s.Placement.High15, s.Placement.OldCompat
	p.ties = pick[tieRule](&bad, "ties", s.Ties, tieRuleNames)
	p.zero = pick[zeroRule](&bad, "zero_weight", s.ZeroWeight, zeroRuleNames)
	p.key = pick[keyRule](&bad, "key", s.Key.Kind, keyRuleNames)
	p.truncate = s.Key.Bytes
	p.order = pick[orderRule](&bad, "order", s.Order, orderRuleNames)
	p.families = compileFamilies(s, &bad)
	if p.fail == failRehash {
		p.firstTag, p.bounded = s.Failover.FirstTag, s.Failover.BoundedByServers
	}
	// Removal only matters for rings that change; this package builds rings whole.
	pick[removalRule](&bad, "removal", s.Removal, removalRuleNames)
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
	if !utf8.ValidString(name) {
		return nil, ErrInvalidUtf8
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
	if !utf8.ValidString(name) {
		return "", ErrInvalidUtf8
	}
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
