package tests

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// TestDefaultGraphMermaid pins the compiled default graph's diagram, and
// keeps the README's diagram that file, so the picture cannot drift from
// the code (go test ./tests -update rewrites it).
func TestDefaultGraphMermaid(t *testing.T) {
	a := newAgent(t, agent.Options{})
	diagram := a.Graph().Mermaid()
	sgrtest.Golden(t, "testdata/default_graph.mmd", diagram, *update)
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	assert.Contains(t, string(readme), "```mermaid\n"+strings.TrimSpace(diagram)+"\n```", "README's diagram differs from testdata/default_graph.mmd")
}
