package ketama

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

func TestSpecCopyIsCurrent(t *testing.T) {
	want, err := os.ReadFile("../spec/profiles.json")
	if err != nil {
		t.Skipf("no ../spec/profiles.json (outside the repository): %v", err)
	}
	if !bytes.Equal(want, specJSON) {
		t.Fatal("go/profiles.json differs from spec/profiles.json; regenerate it: bash tests/gen-tables.sh")
	}
}

func TestEverySpecProfileCompiles(t *testing.T) {
	if specProblem != nil {
		t.Fatal(specProblem)
	}
	if len(profiles) != len(spec.Profiles) || len(profiles) < 40 {
		t.Fatalf("%d profiles compiled of %d", len(profiles), len(spec.Profiles))
	}
}

func TestEverySpecHashIsImplementedAndNoOther(t *testing.T) {
	for _, h := range spec.Hashes {
		if hashFuncs[h.Name] == nil {
			t.Errorf("hash %s of the spec has no implementation", h.Name)
		}
	}
	if len(hashFuncs) != len(spec.Hashes) {
		t.Errorf("%d implementations for %d spec hashes", len(hashFuncs), len(spec.Hashes))
	}
}

// The errors this package has are core's, named and worded as spec/errors.json says (the
// generated errors_gen.go), and the embedded spec lists the same ones.
func TestErrorVocabularyIsCores(t *testing.T) {
	raw, err := os.ReadFile("../spec/errors.json")
	if err != nil {
		t.Skipf("no ../spec/errors.json (outside the repository): %v", err)
	}
	var table struct {
		Errors []struct {
			Name    string `json:"name"`
			Message string `json:"message"`
			Core    bool   `json:"core"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	var core []*Error
	for _, e := range table.Errors {
		if e.Core {
			core = append(core, &Error{e.Name, e.Message})
		}
	}
	if len(allErrors) != len(core) {
		t.Fatalf("%d errors, core has %d (regenerate: bash tests/gen-tables.sh)", len(allErrors), len(core))
	}
	embedded := map[string]string{}
	for _, e := range spec.Errors {
		embedded[e.Name] = e.Message
	}
	for i, e := range core {
		if *allErrors[i] != *e {
			t.Errorf("error %d: %+v, spec/errors.json %+v", i, *allErrors[i], *e)
		}
		if embedded[e.Name] != e.Message {
			t.Errorf("error %s: the embedded spec says %q", e.Name, embedded[e.Name])
		}
	}
	if len(embedded) != len(core) {
		t.Errorf("the embedded spec lists %d errors, core %d", len(embedded), len(core))
	}
}
