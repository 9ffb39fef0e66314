package ketama

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
)

// ketamaBin finds the ketama command: $KETAMA_BIN, else the repository's target/debug build.
func ketamaBin(t *testing.T) string {
	if b := os.Getenv("KETAMA_BIN"); b != "" {
		return b
	}
	b, _ := filepath.Abs("../target/debug/ketama")
	if _, err := os.Stat(b); err != nil {
		if os.Getenv("KETAMA_REQUIRE_CLI") != "" {
			t.Fatalf("KETAMA_REQUIRE_CLI is set and no ketama binary at %s (set KETAMA_BIN)", b)
		}
		t.Skipf("no ketama binary (set KETAMA_BIN or run cargo build -p ketama-cli): %s", b)
	}
	return b
}

// runKit builds the Go driver and runs `ketama conformance --all --format json` with it over
// the vector files in dir; the JSON report, and the command's error (a failing exit).
func runKit(t *testing.T, dir string) ([]byte, error) {
	t.Helper()
	bin := ketamaBin(t)
	driver := filepath.Join(t.TempDir(), "ketama-conformance")
	build := exec.Command("go", "build", "-o", driver, "./cmd/ketama-conformance")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("building the driver: %v", err)
	}
	vectors, _ := filepath.Abs(dir)
	cmd := exec.Command(bin, "conformance", "--all", "--vectors", vectors, "--format", "json", "--", driver)
	cmd.Stderr = os.Stderr
	return cmd.Output()
}

// TestConformanceAllVectorFiles runs the Go driver through `ketama conformance --all`: every
// vector file recorded from the real clients must agree on every key.
func TestConformanceAllVectorFiles(t *testing.T) {
	out, err := runKit(t, "../tests/vectors")
	var report struct {
		Files []struct {
			File, Kind string
			Profile    *string
			Agree      int
			Total      int
			Note       *string
		}
		FilesAgree int  `json:"files_agree"`
		FilesTotal int  `json:"files_total"`
		OK         bool `json:"ok"`
	}
	if jerr := json.Unmarshal(out, &report); jerr != nil {
		t.Fatalf("ketama conformance: %v (%v)\n%s", err, jerr, out)
	}
	per := map[string][2]int{}
	for _, f := range report.Files {
		p := "-"
		if f.Profile != nil {
			p = *f.Profile
		}
		c := per[p]
		c[1]++
		if f.Agree == f.Total && f.Note == nil {
			c[0]++
		} else {
			note := ""
			if f.Note != nil {
				note = *f.Note
			}
			t.Errorf("%s: %d/%d keys agree: %s", f.File, f.Agree, f.Total, note)
		}
		per[p] = c
	}
	names := make([]string, 0, len(per))
	for p := range per {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		t.Logf("%-42s %d/%d files agree", p, per[p][0], per[p][1])
	}
	t.Logf("%d of %d vector files agree", report.FilesAgree, report.FilesTotal)
	if !report.OK || err != nil {
		t.Fatalf("not conformant (%v)", err)
	}
}

// TestConformanceOptionFiles runs the Go driver through the kit on tests/vectors/options (the
// files recorded with placement options, sent as `option` lines): every key must agree.
func TestConformanceOptionFiles(t *testing.T) {
	out, err := runKit(t, "../tests/vectors/options")
	var report struct {
		FilesAgree int  `json:"files_agree"`
		FilesTotal int  `json:"files_total"`
		KeysAgree  int  `json:"keys_agree"`
		KeysTotal  int  `json:"keys_total"`
		OK         bool `json:"ok"`
	}
	if jerr := json.Unmarshal(out, &report); jerr != nil {
		t.Fatalf("ketama conformance: %v (%v)\n%s", err, jerr, out)
	}
	if !report.OK || err != nil || report.FilesTotal < 18 || report.KeysAgree != report.KeysTotal {
		t.Fatalf("option files: %d of %d agree (%d of %d keys), exit %v", report.FilesAgree, report.FilesTotal, report.KeysAgree, report.KeysTotal, err)
	}
}
