package sgrtest

import (
	"fmt"
	"os"
	"testing"
)

// MainWithDir runs a package's tests (from its TestMain) with *dir set to
// a folder made for the whole test binary and removed after the last test,
// and returns the code to exit with. Tests share it for what is costly to
// make once per test and safe to share: the index cache of a knowledge
// base, which is synced by content under a file lock.
func MainWithDir(m *testing.M, pattern string, dir *string) int {
	d, err := os.MkdirTemp("", pattern)
	if err != nil {
		fmt.Fprintf(os.Stderr, "sgrtest: a folder for the tests: %v\n", err)
		return 1
	}
	defer os.RemoveAll(d)
	*dir = d
	return m.Run()
}
