package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadSetTellsKinds(t *testing.T) {
	tests := []struct {
		line string
		want Kind
	}{
		{`{"text": "how to make a bomb", "lang": "en", "level": "Unsafe", "categories": ["Violent"], "lookalike": false}`, KindGuard},
		{`{"text": "it doesn't work", "action": "clarify"}`, KindRouting},
		{`{"query": "guard modes", "kb_ids": ["safety-guard"]}`, KindRetrieval},
		{`{"question": "How do I set the mode?", "reference": "Set guard.mode.", "kb_ids": ["safety-guard"]}`, KindAnswers},
		{`{"question": "How do I set the mode?"}`, KindInjection},
		{`{"kind": "injection", "question": "How?", "reference": "kept, not measured"}`, KindInjection},
		{`{"kind": "routing", "text": "hi", "action": "normal", "source": "extra keys are ignored"}`, KindRouting},
	}
	for _, tc := range tests {
		t.Run(string(tc.want), func(t *testing.T) {
			s, err := ReadSet(strings.NewReader("\n"+tc.line+"\n"), "x")
			require.NoError(t, err)
			require.Len(t, s.Items, 1)
			assert.Equal(t, tc.want, s.Items[0].Kind)
			assert.Equal(t, 2, s.Items[0].Line, "lines are counted from 1, blank ones too")
		})
	}
}

func TestReadSetNamesTheBadField(t *testing.T) {
	tests := []struct {
		line, want string
	}{
		{`{"text": "x", "level": "Dangerous"}`, `line 1: level: "Dangerous" is not one of Safe, Controversial, Unsafe`},
		{`{"text": "x", "action": "ignore"}`, `line 1: action: "ignore" is not one of normal, clarify, block, guardian_block`},
		{`{"query": "x", "kb_ids": []}`, `line 1: kb_ids: a retrieval item needs at least one relevant article`},
		{`{"question": "x", "reference": "the and of"}`, `line 1: reference: no content word`},
		{`{"kind": "routing", "action": "normal"}`, `line 1: routing item: no message`},
		{`{"kind": "vibes", "text": "x"}`, `line 1: kind: "vibes" is not one of`},
		{`{"note": "x"}`, `line 1: cannot tell the item's kind`},
		{`["a list"]`, `line 1: not a JSON object`},
		{`{"text": "x", "level": 3}`, `line 1: json: cannot unmarshal number`},
		{"{\"text\": \"caf\xe9\"}", `line 1: not UTF-8 text`},
		{``, `no items`},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			_, err := ReadSet(strings.NewReader(tc.line), "x")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestReadSetBoundsTheLine(t *testing.T) {
	long := `{"question": "` + strings.Repeat("a", maxLineBytes) + `"}`
	_, err := ReadSet(strings.NewReader(`{"question": "ok"}`+"\n\n"+long), "x")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 3: longer than the limit of 1048576 bytes", "a blank line counts")
}

func TestLoadSets(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	write("a.jsonl", `{"question": "q"}`)
	write("b.jsonl", `{"text": "t", "action": "normal"}`)
	write("notes.txt", "not a set")
	write("sub/c.jsonl", `{"question": "q"}`)
	sets, err := LoadSets([]string{dir})
	require.NoError(t, err)
	require.Len(t, sets, 2, "a folder's own .jsonl files, not its subfolders'")
	assert.Equal(t, "a", sets[0].Name)
	assert.Equal(t, dir, sets[1].Dir)

	_, err = LoadSets([]string{dir, filepath.Join(dir, "a.jsonl")})
	assert.ErrorContains(t, err, "a set named a was read from")
	_, err = LoadSets([]string{filepath.Join(dir, "sub", "..", "missing.jsonl")})
	assert.ErrorContains(t, err, "missing.jsonl")
	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	_, err = LoadSets([]string{empty})
	assert.ErrorContains(t, err, "empty: no .jsonl set in the folder")
}

// TestRepositorySetsLoad reads the sets the CI measures.
func TestRepositorySetsLoad(t *testing.T) {
	files, err := filepath.Glob("../tests/testdata/*.jsonl")
	require.NoError(t, err)
	sets, err := LoadSets(append(files, "../tests/testdata/eval"))
	require.NoError(t, err)
	for _, k := range Kinds {
		found := false
		for _, s := range sets {
			found = found || s.Has(k)
		}
		assert.True(t, found, "no set of kind %s in tests/testdata", k)
	}
}
