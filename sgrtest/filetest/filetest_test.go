package filetest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sgrgraph/sgrgraph/sgrtest/filetest"
)

// recorder is a testing.TB whose Fatal stops only the call it ran in, so
// that a test can see a helper fail.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run calls f with a recorder in a goroutine of its own, as Fatal ends it,
// and returns the failure, "" when there is none.
func run(t *testing.T, f func(testing.TB)) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.failed
}

func file(t *testing.T, text string) string {
	path := filepath.Join(t.TempDir(), "f.dmn")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func holds(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s holds %q, want %q", path, got, want)
	}
}

func TestReplace(t *testing.T) {
	path := file(t, "a < 30; b >= 30; c")
	if failed := run(t, func(tb testing.TB) { filetest.Replace(tb, path, "< 30", "< 40", ">= 30", ">= 40") }); failed != "" {
		t.Fatalf("Replace failed: %s", failed)
	}
	holds(t, path, "a < 40; b >= 40; c")
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode after Replace: %v, %v; want 0600", info.Mode(), err)
	}

	for name, pairs := range map[string][]string{
		"a text the file does not hold": {"c", "d", "< 30", "< 20"},
		"an old text without its new":   {"c", "d", "b"},
	} {
		failed := run(t, func(tb testing.TB) { filetest.Replace(tb, path, pairs...) })
		if failed == "" {
			t.Errorf("%s: Replace did not fail", name)
		}
		holds(t, path, "a < 40; b >= 40; c") // nothing written
	}
}

func TestCut(t *testing.T) {
	path := file(t, "<rule id=\"1\">x</rule>\n<rule id=\"2\">y</rule>\n")
	if failed := run(t, func(tb testing.TB) { filetest.Cut(tb, path, `(?s)<rule id="1">.*?</rule>\s*`) }); failed != "" {
		t.Fatalf("Cut failed: %s", failed)
	}
	holds(t, path, "<rule id=\"2\">y</rule>\n")
	for _, pattern := range []string{`<rule id="1">`, `(`} {
		if failed := run(t, func(tb testing.TB) { filetest.Cut(tb, path, pattern) }); failed == "" {
			t.Errorf("Cut of %s did not fail", pattern)
		}
	}
	holds(t, path, "<rule id=\"2\">y</rule>\n")
}
