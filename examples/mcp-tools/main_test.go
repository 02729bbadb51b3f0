package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/mcptools"
	"github.com/sgrgraph/sgrgraph/mcptools/mcptest"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// The example against server-everything@mcptest.Version, installed from
// npm, and sgrgraph mcp built from this module.
func TestExample(t *testing.T) {
	node, args := mcptest.NPMServer(t, mcptest.Everything)
	bin := servers.Sgrgraph(t)
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, []mcptools.Server{
		{Name: "everything", Command: node, Args: args},
		{Name: "sgrgraph", Command: bin, Args: []string{"mcp", "--cache-dir", t.TempDir()},
			Env: map[string]string{"XDG_CACHE_HOME": t.TempDir()}},
	}))
	assert.Regexp(t, `^everything__echo \(everything's echo\)
everything__get-sum \(everything's get-sum\)
sgrgraph__search_kb \(sgrgraph's search_kb\)
echo: Echo: hello from sgrgraph
get-sum: The sum of 2 and 3 is 5\.
search_kb: .+ \(.+\)
$`, out.String())
	t.Log(out.String())
}
