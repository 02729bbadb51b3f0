package agent_test

import (
	"context"
	"testing"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
)

// BenchmarkAgentNew is the start of `sgrgraph ask` once its index is built:
// the default configuration, the embedded knowledge base opened from its
// cache, the rules guard, the offline engine and the compiled graph. The
// first agent, outside the loop, builds the index and compiles the
// lexicon; every later one reuses both, as a second agent in one process does.
func BenchmarkAgentNew(b *testing.B) {
	cfg := config.Default()
	cfg.KB.CacheDir = b.TempDir()
	ctx := context.Background()
	first, err := agent.New(ctx, cfg, agent.Options{})
	if err != nil {
		b.Fatal(err)
	}
	first.Close()
	b.ReportAllocs()
	for b.Loop() {
		a, err := agent.New(ctx, cfg, agent.Options{})
		if err != nil {
			b.Fatal(err)
		}
		a.Close()
	}
}
