package tests

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// endpoints are the packages that show a turn to people and programs: the
// HTTP server, the MCP server, batch runs, the web chat and the commands.
// They reach the turn through agent, which hands them masked,
// display-ready views (agent.Masking, agent.Stream's events, agent.Search)
// and typed errors (agent.ErrNoStore, …), so that what is shown is decided
// in one place.
var endpoints = []string{"server", "mcpserver", "batch", "webui", "cmd/sgrgraph"}

// turnParts are the turn's own parts, each with the packages under it:
// no endpoint imports them; what an endpoint needs of them, agent exports.
var turnParts = []string{"nodes", "guards", "graph"}

func isTurnPart(pkg string) bool {
	for _, part := range turnParts {
		if pkg == part || strings.HasPrefix(pkg, part+"/") {
			return true
		}
	}
	return false
}

func TestEndpointsReachTheTurnThroughAgent(t *testing.T) {
	for _, pkg := range endpoints {
		t.Run(pkg, func(t *testing.T) {
			rule, listed := layers[pkg]
			require.True(t, listed, "endpoint %s has no layer", pkg)
			for _, allowed := range rule.allowed {
				assert.False(t, isTurnPart(allowed), "the layers let endpoint %s import %s: reach it through agent", pkg, allowed)
			}
			p, err := build.Default.ImportDir(filepath.Join("..", pkg), 0)
			require.NoError(t, err)
			for _, imp := range p.Imports {
				rel, ours := strings.CutPrefix(imp, module)
				assert.False(t, ours && isTurnPart(rel), "endpoint %s imports %s: reach it through agent", pkg, imp)
			}
		})
	}
	for _, part := range []string{"nodes", "guards/safety", "graph/cachestore"} {
		assert.True(t, isTurnPart(part), part)
	}
	assert.False(t, isTurnPart("graphs"), "a package merely named alike is no part")
}
