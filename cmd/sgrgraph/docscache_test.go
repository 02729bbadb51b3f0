package main

import (
	"fmt"
	"os"
	"testing"
)

// docsCache is the index cache of the embedded documentation that the
// package's tests share. Indexing the documentation takes seconds under the
// race detector, and a cache is synced by content under a file lock (any
// number of commands, in this process or others, may use one at once), so
// a test that is not about a fresh or damaged cache needs none of its own.
// Tests with a knowledge base of their own (--kb) keep their own cache.
var docsCache string

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "sgrgraph-cmd-kb-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	docsCache = dir
	return m.Run()
}
