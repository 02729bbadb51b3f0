package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/kb"
)

func newTestIndex(t *testing.T) *kb.Index {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"retry.md": "---\ntitle: Retries\nurl: https://docs/retry\n---\n# Retries\n\nA RETRY verdict sends the turn back to the agent.",
		"guard.md": "# Guard\n\nThe guard classifies the user message.",
	}
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	docs, errs := kb.LoadDir(dir)
	require.Empty(t, errs)
	idx, err := kb.Open(t.TempDir(), kb.DefaultOptions())
	require.NoError(t, err)
	t.Cleanup(func() { idx.Close() })
	_, err = idx.Sync(docs)
	require.NoError(t, err)
	return idx
}

func TestSearchKBInfo(t *testing.T) {
	tl, err := NewSearchKB(newTestIndex(t), 5)
	require.NoError(t, err)
	info, err := tl.Info(context.Background())
	require.NoError(t, err)
	assert.Equal(t, SearchKBToolName, info.Name)
	js, err := info.ParamsOneOf.ToJSONSchema()
	require.NoError(t, err)
	raw, err := json.Marshal(js)
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"required":["query"]`)
	assert.Contains(t, string(raw), `"maximum":50`)
}

func TestSearchKBRun(t *testing.T) {
	tl, err := NewSearchKB(newTestIndex(t), 5)
	require.NoError(t, err)
	tests := []struct {
		name, args string
		wantKBID   string
		wantErr    string
	}{
		{"finds the article", `{"query":"retry verdict"}`, "retry", ""},
		{"top_k given", `{"query":"guard","top_k":1}`, "guard", ""},
		{"arguments in a code fence", "```json\n{\"query\":\"guard\"}\n```", "guard", ""},
		{"empty query", `{"query":"  "}`, "", "search_kb: query: must not be empty"},
		{"top_k zero", `{"query":"guard","top_k":0}`, "", "search_kb: top_k: must be between 1 and 50, got 0"},
		{"top_k too large", `{"query":"guard","top_k":51}`, "", "top_k: must be between 1 and 50, got 51"},
		{"broken JSON tells how to call again", `{"query":`, "", `invalid JSON (unexpected end of JSON input); call again with {"query": "...", "top_k": 5}`},
		{"a word for a number", `{"query":"guard","top_k":"many"}`, "", `search_kb arguments: top_k: "many" is not a number`},
		{"a number as a string is read", `{"query":"guard","top_k":"1"}`, "guard", ""},
		{"a fraction is not a count", `{"query":"guard","top_k":1.5}`, "", "top_k: 1.5 is not a whole number"},
		{"a query as a list of words", `{"query":["retry","verdict"]}`, "retry", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tl.InvokableRun(context.Background(), tc.args)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			var res kb.Result
			require.NoError(t, json.Unmarshal([]byte(out), &res))
			require.NotEmpty(t, res.Articles)
			assert.Equal(t, tc.wantKBID, res.Articles[0].KBID)
			assert.NotEmpty(t, res.Articles[0].Chunks)
			assert.Contains(t, out, `"confidence":{"top_score"`)
		})
	}
}

func TestSearchKBRunHonoursCancellation(t *testing.T) {
	tl, err := NewSearchKB(newTestIndex(t), 5)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = tl.InvokableRun(ctx, `{"query":"guard"}`)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestNewSearchKBValidates(t *testing.T) {
	_, err := NewSearchKB(nil, 5)
	assert.EqualError(t, err, "search_kb: no knowledge base given")
	_, err = NewSearchKB(newTestIndex(t), 0)
	assert.EqualError(t, err, "search_kb: default top_k must be between 1 and 50, got 0")
}
