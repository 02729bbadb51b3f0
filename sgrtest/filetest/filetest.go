// Package filetest changes the files a test wrote, as a person editing them
// would, and fails the test when a file does not hold what is to change: an
// edit that matched nothing would leave the test checking the file as it
// was.
package filetest

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Replace replaces, in the file at path, each old text of pairs (old, new,
// old, new, …) by its new one, in order. The file must hold every old text
// when its turn comes.
func Replace(t testing.TB, path string, pairs ...string) {
	t.Helper()
	if len(pairs)%2 != 0 {
		t.Fatalf("filetest.Replace: %d texts given, want old and new pairs", len(pairs))
	}
	s := read(t, path)
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("%s holds no %q", path, pairs[i])
		}
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	write(t, path, s)
}

// Cut removes from the file at path every text the regular expression
// pattern matches; it must match at least once.
func Cut(t testing.TB, path, pattern string) {
	t.Helper()
	re, err := regexp.Compile(pattern)
	if err != nil {
		t.Fatalf("filetest.Cut: %v", err)
	}
	s := read(t, path)
	if !re.MatchString(s) {
		t.Fatalf("%s holds nothing %s matches", path, pattern)
	}
	write(t, path, re.ReplaceAllString(s, ""))
}

func read(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// write replaces the file's text; the file keeps its mode.
func write(t testing.TB, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
