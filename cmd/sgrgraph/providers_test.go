package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/models/offline"
	"github.com/sgrgraph/sgrgraph/sgrtest"
	"github.com/sgrgraph/sgrgraph/sgrtest/openaitest"
)

// engineServer serves the offline engine over the OpenAI protocol.
func engineServer(t *testing.T, opts ...openaitest.Option) *openaitest.Server {
	t.Helper()
	k, err := agent.OpenKnowledge(context.Background(), kb.Config{CacheDir: docsCache, TopK: 5, RelevanceThreshold: 0.5})
	require.NoError(t, err)
	t.Cleanup(func() { k.Close() })
	srv := openaitest.New(offline.New(offline.Options{Corpus: k.Corpus(), Product: "sgrgraph", Language: "en"}), opts...)
	t.Cleanup(srv.Close)
	return srv
}

func TestAskAgainstAnOpenAICompatibleServer(t *testing.T) {
	srv := engineServer(t)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	out, _, err := run(t, "ask", "--provider", "openai", "--base-url", srv.URL, "--model", "m", "--cache-dir", docsCache,
		"--trace", trace, "How do I configure the safety guard?")
	require.NoError(t, err)
	assert.Contains(t, out, "[1]")
	assert.Contains(t, out, "\nanswer checked: passed · ")
	assert.NotEmpty(t, srv.Requests())

	f, err := os.Open(trace)
	require.NoError(t, err)
	defer f.Close()
	var nodes []string
	lines := bufio.NewScanner(f)
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		var l struct {
			Node       string   `json:"node"`
			Tools      []string `json:"tools"`
			ToolChoice string   `json:"tool_choice"`
		}
		require.NoError(t, json.Unmarshal(lines.Bytes(), &l))
		nodes = append(nodes, l.Node+":"+l.ToolChoice)
	}
	assert.Equal(t, []string{"sgr_plan:required", "agent_model:required", "agent_model:auto"}, nodes)
}

func TestDoctor(t *testing.T) {
	healthy := openaitest.New(sgrtest.NewScriptedModel(sgrtest.ToolCall("ping", "{}")).Repeat())
	defer healthy.Close()
	out, _, err := run(t, "doctor", "--provider", "openai", "--base-url", healthy.URL, "--model", "m")
	require.NoError(t, err, out)
	assert.Contains(t, out, "ok    model m: reachable:")
	assert.Contains(t, out, "ok    guard: rules: answers (a harmless message is Safe)")

	picky := openaitest.New(sgrtest.NewScriptedModel(sgrtest.ToolCall("ping", "{}")).Repeat(),
		openaitest.WithFaults(func(r openaitest.Request) openaitest.Fault {
			if strings.HasPrefix(r.ToolChoice, "function:") {
				return openaitest.Fault{Status: 404}
			}
			return openaitest.Fault{}
		}))
	defer picky.Close()
	out, _, err = run(t, "doctor", "--provider", "openai", "--base-url", picky.URL, "--model", "m")
	require.Error(t, err)
	assert.Contains(t, out, "FAIL  model m: forced tool choice: the server takes tool_choice required")
	assert.Contains(t, out, "-> set model.forced_tool_choice: required")

	out, _, err = run(t, "doctor")
	require.NoError(t, err)
	assert.Contains(t, out, "model: offline: the embedded engine")
}
