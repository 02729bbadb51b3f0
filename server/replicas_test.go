package server

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// replica is one serve process's worth: its own agent over the shared store,
// its own HTTP server on a port of its own.
func replica(t *testing.T, store string) string {
	t.Helper()
	ctx := context.Background()
	s, err := agent.OpenStore(ctx, store)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	a, err := agent.New(ctx, cfg, agent.Options{Knowledge: offline.Knowledge(), Store: s})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close() })
	return serve(t, a, Options{APIKeys: []string{"k"}, Sessions: true}).URL
}

// TestReplicasShareThreads runs two replicas on different ports over one
// real Postgres or Redis and alternates one session's turns between them:
// each turn continues where the other replica left the thread.
func TestReplicasShareThreads(t *testing.T) {
	for _, tc := range []struct {
		name  string
		store func(t *testing.T) string
	}{
		{"postgres", func(t *testing.T) string { return servers.Postgres(t) }},
		{"redis", func(t *testing.T) string { return servers.Redis(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := tc.store(t)
			urls := []string{replica(t, store), replica(t, store)}
			require.NotEqual(t, urls[0], urls[1])
			session := "shared-" + newID()
			questions := []string{"How do I configure the safety guard?", "What does report mode do?", "How do I run a batch?", "And how do I switch it back?"}
			for i, q := range questions {
				res := post(t, urls[i%2]+"/v1/chat/completions", "k", chatBody("user", q), "X-Session-Id", session, resultHeader, "full")
				require.Equal(t, http.StatusOK, res.StatusCode)
				var c chatCompletion
				require.NoError(t, json.NewDecoder(res.Body).Decode(&c))
				require.NotNil(t, c.SGRGraph)
				assert.Equal(t, i+1, c.SGRGraph.Turn, "turn %d on replica %d continues the thread", i+1, i%2)
			}
		})
	}
}
