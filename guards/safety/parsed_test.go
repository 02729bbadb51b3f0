package safety

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParsedLexiconIsCurrent: lexicon.parsed.json is what `go generate`
// writes from lexicon.yaml, so every process takes the fast path.
func TestParsedLexiconIsCurrent(t *testing.T) {
	b, err := ParsedLexicon(defaultLexicon)
	require.NoError(t, err)
	require.True(t, bytes.Equal(embeddedParsed, b), "lexicon.parsed.json is not lexicon.yaml's: run go generate ./guards/safety")
	_, ok := storedParsed(defaultLexicon)
	assert.True(t, ok)
}

// TestStoredParsedLexiconIsTheYAMLs: the lexicon and triggers read from the
// stored file are those read from the YAML, and a lexicon that is not the
// one stored is not given the stored one's.
func TestStoredParsedLexiconIsTheYAMLs(t *testing.T) {
	lex, err := decodeLexicon(defaultLexicon, "embedded lexicon")
	require.NoError(t, err)
	triggers, err := parseTriggers(lex)
	require.NoError(t, err)
	stored, ok := storedParsed(defaultLexicon)
	require.True(t, ok)
	assert.Equal(t, lex, stored.Lexicon)
	assert.Equal(t, triggers, stored.Triggers)

	edited := append(bytes.Clone(defaultLexicon), "\n# one more line\n"...)
	_, ok = storedParsed(edited)
	assert.False(t, ok, "an edited lexicon is parsed again")
}
