package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/mcpserver"
)

// TestAskWithAnAssistant: the ask tools' assistant argument picks an
// assistant as /v1/turns' does. One with a knowledge base of its own
// answers from it; a conversation keeps the version its first call ran,
// and naming another, or one on a conversation the server's own
// configuration ran, is a tool error naming the argument.
func TestAskWithAnAssistant(t *testing.T) {
	ctx := context.Background()
	kbDir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(kbDir, "zephyr-reset.md"), []byte("# Zephyr gateway reset\n\n"+
		"To reset the Zephyr gateway, hold its blue button for twelve seconds until the lamp blinks amber.\n"), 0o644))
	base := config.Default()
	base.KB.CacheDir = t.TempDir()
	store := checkpoint.NewMemory()
	own, err := agent.New(ctx, base, agent.Options{Knowledge: shared.Knowledge(), Store: store})
	require.NoError(t, err)
	as, err := agent.NewAssistants(agent.AssistantsOptions{Base: base, Agent: agent.Options{Store: store}})
	require.NoError(t, err)
	t.Cleanup(func() { as.Close(); own.Close() })
	for range 2 {
		_, err := as.Create(ctx, "zephyr", json.RawMessage(`{"kb":{"dir":`+mustQuote(kbDir)+`}}`), "test")
		require.NoError(t, err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(own, mcpserver.Options{Assistants: as}).Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close(); ss.Wait() })

	const question = "How do I reset the Zephyr gateway?"
	ask := func(args map[string]any) contracts.StructuredResult {
		t.Helper()
		args["question"] = question
		res := call(t, cs, "ask_structured", args)
		require.False(t, res.IsError, text(res))
		var got contracts.StructuredResult
		require.NoError(t, json.Unmarshal([]byte(text(res)), &got))
		return got
	}
	fromZephyr := func(res contracts.StructuredResult) bool {
		for _, e := range res.Evidence {
			if strings.Contains(e.Ref, "zephyr-reset") {
				return strings.Contains(strings.ToLower(res.Answer), "blue button")
			}
		}
		return false
	}
	assert.True(t, fromZephyr(ask(map[string]any{"assistant": "zephyr@1", "session_id": "z1"})), "the assistant's knowledge base answers")
	assert.False(t, fromZephyr(ask(map[string]any{"session_id": "d1"})), "the server's own does not have the article")
	assert.True(t, fromZephyr(ask(map[string]any{"assistant": "zephyr"})), "without a session too")
	next := ask(map[string]any{"session_id": "z1"})
	assert.True(t, fromZephyr(next), "continued without naming it, the conversation keeps its assistant")
	assert.Equal(t, 2, next.Turn)

	for _, tc := range []struct {
		name string
		args map[string]any
		want []string
	}{
		{"another version", map[string]any{"assistant": "zephyr@2", "session_id": "z1"}, []string{"assistant:", "runs assistant zephyr@1, not zephyr@2"}},
		{"on the server's conversation", map[string]any{"assistant": "zephyr", "session_id": "d1"}, []string{"assistant:", "server's own configuration"}},
		{"unknown", map[string]any{"assistant": "nope"}, []string{"assistant:", "no such assistant"}},
		{"bad name", map[string]any{"assistant": "a/b"}, []string{"assistant:", "letters, digits"}},
		{"too long", map[string]any{"assistant": strings.Repeat("a", 81)}, []string{"assistant:", "80"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.args["question"] = question
			for _, tool := range []string{"ask", "ask_structured"} {
				res := call(t, cs, tool, tc.args)
				require.True(t, res.IsError, "%s: got a result: %s", tool, text(res))
				for _, w := range tc.want {
					assert.Contains(t, text(res), w, tool)
				}
			}
		})
	}
	// A server that serves no assistants refuses the argument.
	res := call(t, connect(t), "ask", map[string]any{"question": question, "assistant": "zephyr"})
	require.True(t, res.IsError, text(res))
	assert.Contains(t, text(res), "assistant: this server serves no assistants")
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
