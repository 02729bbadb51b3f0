package tools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/kb"
)

// TestHandOverIsWhatParsingGives: the result search_kb hands over is what
// parsing its output gives, and it is handed over once.
func TestHandOverIsWhatParsingGives(t *testing.T) {
	tl, err := NewSearchKB(newTestIndex(t), 5)
	require.NoError(t, err)
	for _, args := range []string{`{"query":"retry verdict"}`, `{"query":"guard","top_k":1}`, `{"query":"nothing like it"}`} {
		out, err := tl.InvokableRun(context.Background(), args)
		require.NoError(t, err)
		var want kb.Result
		require.NoError(t, json.Unmarshal([]byte(out), &want))
		got, ok := tl.HandOver(out)
		require.True(t, ok, args)
		assert.Equal(t, want, got, args)
		_, again := tl.HandOver(out)
		assert.False(t, again, "handed over twice")
	}
}

// fixed answers every search with one result.
type fixed kb.Result

func (f fixed) Search(string, int) (kb.Result, error) { return kb.Result(f), nil }

// TestHandOverKeepsOnlyWhatRoundTrips: a result whose JSON reads back as
// something else is not kept.
func TestHandOverKeepsOnlyWhatRoundTrips(t *testing.T) {
	for name, res := range map[string]kb.Result{
		"invalid UTF-8":  {Query: "q", Articles: []contracts.Article{{KBID: "a", Chunks: []contracts.Chunk{{Text: "bad \xff"}}}}},
		"empty tag list": {Query: "q", Articles: []contracts.Article{{KBID: "a", Tags: []string{}}}},
	} {
		tl, err := NewSearchKB(fixed(res), 5)
		require.NoError(t, err)
		out, err := tl.InvokableRun(context.Background(), `{"query":"q"}`)
		require.NoError(t, err)
		_, ok := tl.HandOver(out)
		assert.False(t, ok, name)
	}
}
