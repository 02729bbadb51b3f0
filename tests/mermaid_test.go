package tests

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/nodes"
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

// TestNodeNamesAreTheGraphs: nodes.Names, which labels the nodes' metrics
// and logs, lists exactly the nodes of the compiled default graph, the
// loop's and human review's included, whether review is configured or not
// (the graph has one shape): a node added to the graph and not to the list
// (or the other way round) fails here.
func TestNodeNamesAreTheGraphs(t *testing.T) {
	off := newAgent(t, agent.Options{})
	on := newAgent(t, agent.Options{}, func(c *config.Config) { c.Guardian.HumanReview = []string{"fail", "controversial"} })
	require.Equal(t, off.Graph().Mermaid(), on.Graph().Mermaid(), "guardian.human_review changes no node nor edge")
	a := off
	labels := regexp.MustCompile(`"[^"]*"|\[[^\]]*\]`) // edge labels and the subgraph's title
	ident := regexp.MustCompile(`^[a-z][a-z_]*$`)
	inGraph := map[string]bool{}
	for _, line := range strings.Split(a.Graph().Mermaid(), "\n") {
		for _, f := range strings.Fields(labels.ReplaceAllString(line, " ")) {
			f = strings.TrimPrefix(f, nodes.ReactAgentName+"_")
			if ident.MatchString(f) && f != "subgraph" && f != "end" && f != "flowchart" {
				inGraph[f] = true
			}
		}
	}
	assert.ElementsMatch(t, nodes.Names(), slices.Collect(maps.Keys(inGraph)))
}
