package ketama

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// tests/vectors/options/*.json: recorded from the real clients with placement options
// (twemproxy hash_tag, php-memcached OPT_PREFIX_KEY / OPT_HASH_WITH_PREFIX_KEY).
func TestOptionFilesMatchTheRealClients(t *testing.T) {
	files, _ := filepath.Glob("../tests/vectors/options/*.json")
	if len(files) < 10 {
		t.Skipf("no tests/vectors/options (outside the repository): %d files", len(files))
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Profile string
			Hash    *string
			Options struct {
				HashTag        string `json:"hash_tag"`
				PrefixKey      string `json:"prefix_key"`
				HashWithPrefix bool   `json:"hash_with_prefix"`
			}
			Servers vectorServers
			Keys    []string
			Expect  []*string
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		servers := v.Servers.servers()
		hash := ""
		if v.Hash != nil {
			hash = *v.Hash
		}
		plain, err := New(v.Profile, hash, servers)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		r, err := plain.WithOptions(Options(v.Options))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		bad := 0
		for i, k := range v.Keys {
			got := "null"
			if x, err := r.Get(k); err == nil {
				got = x
			}
			want := "null"
			if v.Expect[i] != nil {
				want = *v.Expect[i]
			}
			if got != want {
				if bad < 3 {
					t.Errorf("%s: key %q: got %s, want %s", filepath.Base(f), k, got, want)
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d keys differ", filepath.Base(f), bad, len(v.Keys))
		}
	}
}

func TestOptionsAreChecked(t *testing.T) {
	servers := []Server{{Label: "10.0.0.1:11211", Weight: 1}, {Label: "10.0.0.2:11211", Weight: 1}}
	for _, c := range []struct {
		profile string
		o       Options
	}{
		{"libketama", Options{HashTag: "{}"}},
		{"twemproxy", Options{HashTag: "{"}},
		{"twemproxy", Options{HashTag: "«»"}},
		{"twemproxy", Options{PrefixKey: "p:"}},
		{"php-memcached", Options{PrefixKey: string(make([]byte, 128))}},
		{"php-memcached", Options{PrefixKey: "p\x00q"}},
	} {
		r, err := New(c.profile, "", servers)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.WithOptions(c.o); !errors.Is(err, ErrBadOption) {
			t.Errorf("%s %+v: got %v, want ErrBadOption", c.profile, c.o, err)
		}
	}
}

// vectorServers is a vector file's "servers" list: label, weight (1 when absent), name.
type vectorServers []struct {
	Label  string
	Weight *uint32
	Name   string
}

// servers is the list as the port's servers.
func (vs vectorServers) servers() []Server {
	out := make([]Server, 0, len(vs))
	for _, s := range vs {
		w := uint32(1)
		if s.Weight != nil {
			w = *s.Weight
		}
		out = append(out, Server{Label: s.Label, Weight: w, Name: s.Name})
	}
	return out
}
