package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// zephyrKB is a knowledge base of one article no other one has.
func zephyrKB(t *testing.T) string {
	dir := t.TempDir()
	body := "# Zephyr gateway reset\n\nTo reset the Zephyr gateway, hold its blue button for twelve seconds until the lamp blinks amber. " +
		"The Zephyr gateway then restarts with its factory settings.\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "zephyr-reset.md"), []byte(body), 0o644))
	return dir
}

func newAssistants(t *testing.T) *agent.Assistants {
	as, err := agent.NewAssistants(agent.AssistantsOptions{Base: testConfig(t), Agent: agent.Options{Store: checkpoint.NewMemory()}, MaxAgents: 2})
	require.NoError(t, err)
	t.Cleanup(func() { _ = as.Close() })
	return as
}

// An assistant with a knowledge base of its own answers from it, with the
// offline engine; the server's configuration does not know the article.
func TestAssistantAnswersFromItsOwnKnowledgeBase(t *testing.T) {
	ctx := context.Background()
	as := newAssistants(t)
	keys, _ := json.Marshal(map[string]any{"kb": map[string]any{"dir": zephyrKB(t)}})
	v, err := as.Create(ctx, "zephyr", keys, "k1")
	require.NoError(t, err)
	assert.Equal(t, 1, v.Version)

	a, at, release, err := as.Agent(ctx, agent.Ref{Name: "zephyr"})
	require.NoError(t, err)
	defer release()
	assert.Equal(t, agent.Ref{Name: "zephyr", Version: 1}, at)
	res, err := a.Run(ctx, agent.Turn{SessionID: "s", Message: "How do I reset the Zephyr gateway?"})
	require.NoError(t, err)
	require.NotEmpty(t, res.Evidence, "answer: %s", res.Answer)
	assert.Contains(t, res.Evidence[0].Ref, "zephyr-reset")
	assert.Contains(t, strings.ToLower(res.Answer), "blue button")

	// The same version is built once.
	again, _, release2, err := as.Agent(ctx, agent.Ref{Name: "zephyr", Version: 1})
	require.NoError(t, err)
	release2()
	assert.Same(t, a, again)
}

// An assistant's keys are checked as the config file's are, errors naming
// the field; the server's own sections and secrets are refused.
func TestAssistantConfigIsCheckedAsTheFile(t *testing.T) {
	ctx := context.Background()
	as := newAssistants(t)
	for keys, want := range map[string]string{
		`{"guard": {"mode": "loose"}}`:              "config.guard.mode: ",
		`{"gaurd": {}}`:                             "field gaurd not found",
		`{"threads": {"store": "redis://x"}}`:       "config.threads: not allowed",
		`{"tools": {"mcp": []}}`:                    "config.tools: not allowed",
		`{"model": {"api_key": "sk-1"}}`:            "config.model.api_key: not allowed",
		`[1, 2]`:                                    "config: an object",
		`{"agent": {"max_iterations": 1}}`:          "config.agent.max_iterations: 1 is outside 2..20",
		`{"kb": {"dir": "/no/such/folder/at/all"}}`: "",
	} {
		_, err := as.Create(ctx, "a", json.RawMessage(keys), "")
		if want == "" {
			// A folder that does not exist is the file's own check at
			// start-up: the version is made, its agent fails to build.
			if err == nil {
				_, _, _, err = as.Agent(ctx, agent.Ref{Name: "a"})
				assert.Error(t, err, keys)
			}
			continue
		}
		require.Error(t, err, keys)
		assert.Contains(t, err.Error(), want, keys)
	}
	_, err := as.Create(ctx, "no@version", json.RawMessage(`{}`), "")
	assert.ErrorContains(t, err, "name: ")
	_, _, _, err = as.Agent(ctx, agent.Ref{Name: "missing"})
	assert.True(t, errors.Is(err, agent.ErrNoAssistant), "%v", err)
}

// Versions made at once are each their own; a thread remembers its
// assistant's version.
func TestAssistantVersionsAndBindings(t *testing.T) {
	ctx := context.Background()
	as := newAssistants(t)
	var wg sync.WaitGroup
	got := make([]int, 6)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := as.Create(ctx, "many", json.RawMessage(`{"kb": {"top_k": 3}}`), "")
			if assert.NoError(t, err) {
				got[i] = v.Version
			}
		}()
	}
	wg.Wait()
	assert.ElementsMatch(t, []int{1, 2, 3, 4, 5, 6}, got)
	versions, err := as.Versions(ctx, "many")
	require.NoError(t, err)
	assert.Len(t, versions, 6)
	names, err := as.Names(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"many"}, names)
	_, err = as.Version(ctx, agent.Ref{Name: "many", Version: 7})
	assert.ErrorIs(t, err, agent.ErrNoAssistant)

	_, bound, err := as.Bound(ctx, "k/s")
	require.NoError(t, err)
	assert.False(t, bound)
	require.NoError(t, as.Bind(ctx, "k/s", agent.Ref{Name: "many", Version: 2}))
	r, bound, err := as.Bound(ctx, "k/s")
	require.NoError(t, err)
	assert.True(t, bound)
	assert.Equal(t, "many@2", r.String())
	require.NoError(t, as.Unbind(ctx, "k/s"))
	_, bound, _ = as.Bound(ctx, "k/s")
	assert.False(t, bound)

	r, err = agent.ParseRef("many@3")
	require.NoError(t, err)
	assert.Equal(t, agent.Ref{Name: "many", Version: 3}, r)
	for _, bad := range []string{"", "many@", "many@0", "a/b", "many@x"} {
		_, err := agent.ParseRef(bad)
		assert.Error(t, err, bad)
	}
}
