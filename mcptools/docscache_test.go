package mcptools_test

import (
	"os"
	"testing"

	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// docsCache is the index cache of the embedded documentation that the
// package's tests share, in this process and in the sgrgraph processes
// they start. Indexing the documentation takes seconds under the race
// detector, and a cache is synced by content under a file lock, so any
// number of agents and processes may use one at once. Knowledge bases of
// a test's own (--kb) keep caches of their own.
var docsCache string

func TestMain(m *testing.M) {
	os.Exit(sgrtest.MainWithDir(m, "mcptools-kb-*", &docsCache))
}
