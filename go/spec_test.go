package ketama

import (
	"bytes"
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

func TestErrorVocabularyIsTheSpecs(t *testing.T) {
	if len(allErrors) != len(spec.Errors) {
		t.Fatalf("%d errors, spec has %d", len(allErrors), len(spec.Errors))
	}
	for i, e := range spec.Errors {
		if allErrors[i].Name != e.Name || allErrors[i].Message != e.Message {
			t.Errorf("error %d: %+v, spec %+v", i, *allErrors[i], e)
		}
	}
}
