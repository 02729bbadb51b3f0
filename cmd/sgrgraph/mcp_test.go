package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syncBuffer is a buffer the server's goroutines may log into while the
// test runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestMCPServesOverStdio runs `sgrgraph mcp` in-process with pipes for its
// stdin and stdout, talks to it with the SDK's client, and closes its
// stdin as a client does when it is done: the command then ends cleanly.
func TestMCPServesOverStdio(t *testing.T) {
	inR, inW := io.Pipe()   // the client writes, the command reads
	outR, outW := io.Pipe() // the command writes, the client reads
	var stderr syncBuffer
	a := &app{out: outW, errOut: &stderr, logLevel: "info"}
	require.NoError(t, a.setup())
	// Built directly: the command is not yet registered in newRootCmd.
	cmd := newMCPCmd(a)
	dir := t.TempDir()
	cmd.SetArgs([]string{"--cache-dir", docsCache, "--store", filepath.Join(dir, "threads.db")})
	cmd.SetIn(inR)
	cmd.SetOut(io.Discard)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		err := cmd.ExecuteContext(ctx)
		outW.Close()
		done <- err
	}()

	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	require.NoError(t, err)
	assert.Equal(t, "sgrgraph", cs.InitializeResult().ServerInfo.Name)

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_kb", Arguments: map[string]any{"query": "decision table hit policy", "top_k": 3}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	require.Len(t, res.Content, 1)
	var got struct {
		Articles []struct {
			KBID string `json:"kb_id"`
		} `json:"articles"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &got))
	require.NotEmpty(t, got.Articles)
	assert.Equal(t, "decision-tables", got.Articles[0].KBID)

	// session_id keeps the conversation in the --store file.
	for want := 1; want <= 2; want++ {
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask_structured",
			Arguments: map[string]any{"question": "How do I configure the safety guard?", "session_id": "s1"}})
		require.NoError(t, err)
		require.False(t, res.IsError)
		var turn struct{ Turn int }
		require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &turn))
		assert.Equal(t, want, turn.Turn)
	}
	assert.FileExists(t, filepath.Join(dir, "threads.db"))

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"question": ""}})
	require.NoError(t, err)
	assert.True(t, res.IsError, "a bad argument is a tool error; the session goes on")

	require.NoError(t, cs.Close()) // closes the command's stdin
	select {
	case err := <-done:
		require.NoError(t, err, "a client hanging up ends the command cleanly")
	case <-ctx.Done():
		t.Fatal("the command did not end after its stdin closed")
	}
	logs := stderr.String()
	assert.Contains(t, logs, "knowledge base ready", "logs go to stderr")
	assert.Contains(t, logs, "mcp search")
}

func TestMCPRejectsArguments(t *testing.T) {
	a := &app{out: io.Discard, errOut: io.Discard, logLevel: "warn"}
	require.NoError(t, a.setup())
	cmd := newMCPCmd(a)
	cmd.SetArgs([]string{"extra"})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	assert.ErrorContains(t, cmd.Execute(), "unknown command")
}
