package mcptools_test

import (
	"fmt"
	"os"
	"testing"
)

// docsCache is the index cache of the embedded documentation that the
// package's tests share, in this process and in the sgrgraph processes
// they start. Indexing the documentation takes seconds under the race
// detector, and a cache is synced by content under a file lock, so any
// number of agents and processes may use one at once. Knowledge bases of
// a test's own (--kb) keep caches of their own.
var docsCache string

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "mcptools-kb-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	docsCache = dir
	return m.Run()
}
