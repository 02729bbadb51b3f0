package mcpserver_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
)

// shared is the one agent of the package's tests: offline model, the
// embedded documentation, its index in a temporary folder. Building it
// indexes the documentation, so it is built once.
var shared *agent.Agent

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	cache, err := os.MkdirTemp("", "mcpserver-kb-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(cache)
	cfg := config.Default()
	cfg.KB.CacheDir = cache
	shared, err = agent.New(context.Background(), cfg, agent.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "build the agent:", err)
		return 1
	}
	defer shared.Close()
	return m.Run()
}
