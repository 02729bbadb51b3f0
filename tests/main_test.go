package tests

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// indexesEnv names the folder of shared indexes for the processes a test
// starts from this binary (a crashed child, a killed worker): they open the
// indexes their parent has built instead of building their own.
const indexesEnv = "TESTS_KB_INDEXES"

// indexes is the folder of the knowledge bases' indexes the tests of this
// binary share, one subfolder per knowledge base; TestMain sets it once,
// before any test runs, and removes it after the last.
//
// An index is brought in line with its articles by content (kb.Sync plans
// from the hashes of the files, under a build lock, and publishes whole
// generations), so tests that open the same articles, at once or one after
// the other, all search the same index, built once. Tests about a fresh,
// rebuilt or broken cache keep a folder of their own.
var indexes string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	if dir := os.Getenv(indexesEnv); dir != "" {
		indexes = dir
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "sgrgraph-tests-kb-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "tests: shared index folder: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	indexes = dir
	if err := os.Setenv(indexesEnv, dir); err != nil {
		fmt.Fprintf(os.Stderr, "tests: %s: %v\n", indexesEnv, err)
		return 1
	}
	return m.Run()
}

// sharedIndex is the shared index folder of the knowledge base at kbDir,
// the embedded documentation when kbDir is empty.
func sharedIndex(kbDir string) string {
	if kbDir == "" {
		return filepath.Join(indexes, "embedded")
	}
	if abs, err := filepath.Abs(kbDir); err == nil {
		kbDir = abs
	}
	sum := sha256.Sum256([]byte(kbDir))
	return filepath.Join(indexes, "kb-"+hex.EncodeToString(sum[:8]))
}
