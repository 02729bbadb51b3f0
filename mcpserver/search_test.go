package mcpserver_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/mcpserver"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// search_kb shows the documentation masked as the agent's results are:
// masked by default, as found with output.unmasked_evidence.
func TestSearchKBMasksAsTheOutputSettingsSay(t *testing.T) {
	dir := sgrtest.ContactKB(t)
	k, err := agent.OpenKnowledge(context.Background(), kb.Config{Dir: dir, CacheDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { k.Index.Close() })
	for _, tc := range []struct {
		name     string
		unmasked bool
		want     []string
		wantNot  []string
	}{
		{"masked by default", false, []string{"su***************om", "+1***********00"}, []string{"support@example.com", "415 555 0100"}},
		{"unmasked evidence", true, []string{"support@example.com", "+1 415 555 0100"}, []string{"su***************om"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.KB.CacheDir = t.TempDir()
			cfg.Output.UnmaskedEvidence = tc.unmasked
			a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: k})
			require.NoError(t, err)
			t.Cleanup(func() { a.Close() })
			cs := connectTo(t, a)
			res := call(t, cs, "search_kb", map[string]any{"query": "contact support refunds"})
			require.False(t, res.IsError, text(res))
			var got mcpserver.SearchOutput
			require.NoError(t, json.Unmarshal([]byte(text(res)), &got))
			require.NotEmpty(t, got.Articles)
			assert.Equal(t, "contact", got.Articles[0].KBID)
			for _, s := range tc.want {
				assert.Contains(t, got.Articles[0].BestChunk, s)
			}
			for _, s := range tc.wantNot {
				assert.NotContains(t, got.Articles[0].BestChunk, s)
			}
		})
	}
}

// An agent given its own Searcher and model opens no knowledge base, so
// search_kb has none to search: a tool error that says so.
func TestSearchKBWithoutAKnowledgeBaseIsAToolError(t *testing.T) {
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	a, err := agent.New(context.Background(), cfg, agent.Options{Searcher: noSearch{}, Model: sgrtest.NewScriptedModel()})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close() })
	res := call(t, connectTo(t, a), "search_kb", map[string]any{"query": "guard"})
	require.True(t, res.IsError, text(res))
	assert.Contains(t, text(res), "no knowledge base of its own")
}

type noSearch struct{}

func (noSearch) Search(q string, _ int) (kb.Result, error) { return kb.Result{Query: q}, nil }

// connectTo serves a fresh server of a over the SDK's in-memory transport
// and returns a client session on it.
func connectTo(t *testing.T, a *agent.Agent) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(a, mcpserver.Options{Version: "test"}).Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}
