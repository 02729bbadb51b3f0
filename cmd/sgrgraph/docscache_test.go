package main

import (
	"os"
	"testing"

	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// docsCache is the index cache of the embedded documentation that the
// package's tests share. Indexing the documentation takes seconds under the
// race detector, and a cache is synced by content under a file lock (any
// number of commands, in this process or others, may use one at once), so
// a test that is not about a fresh or damaged cache needs none of its own.
// Tests with a knowledge base of their own (--kb) keep their own cache.
var docsCache string

func TestMain(m *testing.M) {
	os.Exit(sgrtest.MainWithDir(m, "sgrgraph-cmd-kb-*", &docsCache))
}
