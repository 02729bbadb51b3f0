package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// chatThread runs one chat process on a thread and returns its JSON results.
func chatThread(t *testing.T, store, cache string, questions ...string) []contracts.StructuredResult {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := newRootCmd(&stdout, &stderr)
	cmd.SetIn(strings.NewReader(strings.Join(questions, "\n") + "\n\n"))
	cmd.SetArgs([]string{"chat", "--thread", "t1", "--store", store, "--cache-dir", cache, "--json"})
	require.NoError(t, cmd.Execute(), stderr.String())
	var out []contracts.StructuredResult
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var r contracts.StructuredResult
		require.NoError(t, json.Unmarshal([]byte(l), &r))
		out = append(out, r)
	}
	return out
}

func TestChatThreadOutlivesTheProcess(t *testing.T) {
	dir := t.TempDir()
	store, cache := filepath.Join(dir, "threads.db"), docsCache
	first := chatThread(t, store, cache, "How do I configure the safety guard?", "What does report mode do?", "How do I run a batch?")
	require.Len(t, first, 3)
	next := chatThread(t, store, cache, "And how do I switch the guard back to enforce?")
	require.Len(t, next, 1)
	assert.Equal(t, 4, next[0].Turn, "the thread goes on where the last process left it")

	out, _, err := run(t, "threads", "show", "t1", "--store", store)
	require.NoError(t, err)
	for _, q := range []string{"How do I configure the safety guard?", "What does report mode do?", "How do I run a batch?", "And how do I switch the guard back"} {
		assert.Contains(t, out, "user: "+q[:min(len(q), 20)], "the earlier turns are in the thread")
	}
	out, _, err = run(t, "threads", "history", "t1", "--store", store)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Len(t, lines, 4, "a checkpoint per turn: the agent writes a session's turn when it ends")
	assert.Contains(t, lines[0], "end")
	out, _, err = run(t, "threads", "list", "--store", store)
	require.NoError(t, err)
	assert.Contains(t, out, "t1  ")

	out, _, err = run(t, "threads", "prune", "t1", "--keep-last", "3", "--store", store)
	require.NoError(t, err)
	assert.Contains(t, out, "removed")
	out, _, err = run(t, "threads", "history", "t1", "--store", store)
	require.NoError(t, err)
	assert.Len(t, strings.Split(strings.TrimSpace(out), "\n"), 3)
}

func TestThreadsErrors(t *testing.T) {
	store := filepath.Join(t.TempDir(), "threads.db")
	_, _, err := run(t, "threads", "show", "nobody", "--store", store)
	assert.ErrorContains(t, err, `thread "nobody": checkpoint not found`)
	_, _, err = run(t, "threads", "prune", "--keep-last", "0", "--max-age", "0", "--store", store)
	assert.ErrorContains(t, err, "nothing to drop")
	_, _, err = run(t, "threads", "prune", "--max-age", "1s", "--store", store)
	assert.ErrorContains(t, err, "max_age: 1s is under a minute")
	_, _, err = run(t, "ask", "--store", store, "hello")
	assert.ErrorContains(t, err, "--store: given without --thread")
}
