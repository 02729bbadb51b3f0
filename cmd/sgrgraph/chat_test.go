package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
)

func TestReadLine(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []line
	}{
		{"lines", "a\nbc\n", []line{{text: "a"}, {text: "bc"}, {eof: true}}},
		{"last line without newline", "a", []line{{text: "a"}, {eof: true}}},
		{"at the limit", "12345\n", []line{{text: "12345"}, {eof: true}}},
		{"over the limit is cut, the next line is whole", "123456789\nok\n", []line{{text: "12345", cut: true}, {text: "ok"}, {eof: true}}},
		{"windows line ends", "a\r\nb\r\n", []line{{text: "a"}, {text: "b"}, {eof: true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(tc.input), 16) // smaller than some lines: ReadLine returns parts
			var got []line
			for range tc.want {
				got = append(got, readLine(br, 5))
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestChatSkipsBadLines(t *testing.T) {
	var stdout, stderr bytes.Buffer
	cmd := newRootCmd(&stdout, &stderr)
	cmd.SetIn(strings.NewReader(strings.Repeat("я", 40000) + "\nit doesn't work\n\n"))
	cmd.SetArgs([]string{"chat", "--cache-dir", docsCache})
	require.NoError(t, cmd.Execute())
	assert.Contains(t, stderr.String(), "message: over the limit of 16000 characters")
	assert.Contains(t, stdout.String(), "\nwaiting for your reply\n", "the chat goes on after a bad line")
	assert.Equal(t, 1, strings.Count(stdout.String(), "so one question first:"), "the question back is printed once")
}

// lockedBuffer is a buffer one goroutine writes while another reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestChatEndsOnInterruptAtThePrompt(t *testing.T) {
	var stdout, stderr lockedBuffer
	cmd := newRootCmd(&stdout, &stderr)
	in, w := io.Pipe() // nothing is ever typed
	defer w.Close()
	cmd.SetIn(in)
	cmd.SetArgs([]string{"chat", "--cache-dir", docsCache})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "> ") }, time.Minute, 10*time.Millisecond)
	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err, "Ctrl-C at the prompt ends the chat cleanly")
	case <-time.After(time.Minute):
		t.Fatal("chat did not end after the interrupt")
	}
}

func TestPromptTo(t *testing.T) {
	var out, errOut bytes.Buffer
	tests := []struct {
		name          string
		typed, asJSON bool
		want          io.Writer
	}{
		{"a person reading plain answers", true, false, &out},
		{"plain answers from a pipe keep the transcript's prompts", false, false, &out},
		{"a person typing, JSON out: prompts beside it", true, true, &errOut},
		{"a program on both ends: no prompts", false, true, io.Discard},
	}
	for _, tc := range tests {
		assert.True(t, tc.want == promptTo(tc.typed, tc.asJSON, &out, &errOut), tc.name)
	}
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	assert.False(t, isTerminal(r), "a pipe is not typed into")
	assert.False(t, isTerminal(strings.NewReader("")))
}

func TestChatJSONIsJSONLines(t *testing.T) {
	var stdout, stderr bytes.Buffer
	cmd := newRootCmd(&stdout, &stderr)
	cmd.SetIn(strings.NewReader("it doesn't work\nthe safety guard mode\n\n"))
	cmd.SetArgs([]string{"chat", "--cache-dir", docsCache, "--json"})
	require.NoError(t, cmd.Execute())
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	require.Equal(t, 2, len(lines), "one line per turn; the output starts %q", stdout.String()[:min(stdout.Len(), 120)])
	var actions []contracts.Action
	for i, l := range lines {
		var res contracts.StructuredResult
		require.NoError(t, json.Unmarshal([]byte(l), &res), "line %d is not one JSON value: %q", i+1, l)
		actions = append(actions, res.Action)
	}
	assert.Equal(t, []contracts.Action{contracts.ActionClarify, contracts.ActionNormal}, actions)
	assert.NotContains(t, stderr.String(), "> ", "piped input: no one to prompt")
}
