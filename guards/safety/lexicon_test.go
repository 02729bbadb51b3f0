package safety

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultLexiconCoversEveryCategory(t *testing.T) {
	lex, err := DefaultLexicon()
	require.NoError(t, err)
	seen := map[string]bool{}
	for _, e := range lex.Entries {
		seen[e.Category] = true
	}
	for _, c := range categories {
		assert.True(t, seen[c], "no entry for category %q", c)
	}
}

func TestParseLexiconErrorsNameEntryAndField(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       []string
	}{
		{"wrong version", "version: 2\nentries: [{id: a, category: PII, level: Unsafe, match: [x]}]", []string{"version: must be 1, got 2"}},
		{"no entries", "version: 1\nentries: []", []string{"entries: must not be empty"}},
		{"unknown field", "version: 1\nentries: [{id: a, categry: PII}]", []string{"field categry not found"}},
		{"bad entry", "version: 1\nentries:\n- {id: v.x, category: Violence, level: Safe, match: ['(unclosed'], window: 50, near: [[]]}", []string{
			`entries[0] (v.x): category: "Violence" is not one of`,
			`entries[0] (v.x): level: must be Unsafe or Controversial, got "Safe"`,
			`entries[0] (v.x): window: must be between 0 and 20, got 50`,
			`entries[0] (v.x): near[0]: must not be empty`,
			`entries[0] (v.x): match[0]: error parsing regexp`,
		}},
		{"missing id and match", "version: 1\nentries: [{category: PII, level: Unsafe}]", []string{
			"entries[0]: id: must not be empty", "entries[0]: match: must not be empty"}},
		{"duplicate id", "version: 1\nentries: [{id: a, category: PII, level: Unsafe, match: [x]}, {id: a, category: PII, level: Unsafe, match: [y]}]",
			[]string{"entries[1] (a): id: duplicate"}},
		{"empty pattern", "version: 1\nentries: [{id: a, category: PII, level: Unsafe, match: [x], unless: [' ']}]", []string{"entries[0] (a): unless[0]: empty pattern"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseLexicon([]byte(tc.yaml), "test.yaml")
			require.Error(t, err)
			assert.Contains(t, err.Error(), "lexicon test.yaml")
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestLoadLexicon(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lexicon.yaml")
	require.NoError(t, os.WriteFile(path, []byte("version: 1\nentries:\n- {id: pii.cake, category: PII, level: Controversial, match: [cake]}\n"), 0o644))
	lex, err := LoadLexicon(path)
	require.NoError(t, err)
	require.Len(t, lex.Entries, 1)

	_, err = LoadLexicon(filepath.Join(t.TempDir(), "missing.yaml"))
	assert.ErrorContains(t, err, "lexicon: open")
}
