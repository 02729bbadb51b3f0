package kb

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each language's analyzer drops only its own stop words: without the
// shared filter, "the" went through the Russian analyzer and "и" through the
// English one, and matched nearly every chunk.
func TestAQueryOfStopWordsOnlyFindsNothing(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"guard.md": "# The guard\n\nThe guard is a part of the turn; it classifies a message and the answer.",
		"turn.md":  "# The turn\n\nOne of the turns runs a graph of the nodes.",
		"ru.md":    "# Фильтр\n\nФильтр и модель: в начале и в конце, на входе и на выходе, это не то.",
	})
	idx, _ := openSynced(t, dir)
	for _, q := range []string{"the a of", "The A OF?", "и в на", "не что то", "the и of на", "a, the; и…"} {
		t.Run(q, func(t *testing.T) {
			res, err := idx.Search(q, 5)
			require.NoError(t, err)
			assert.Empty(t, res.Articles)
			assert.False(t, res.Confidence.LikelyRelevant)
			assert.Zero(t, res.Confidence.TopScore)
		})
	}
	tests := []struct{ query, want string }{
		{"the guard of the turn", "guard"}, // stop words around real words do not get in the way
		{"фильтр и модель", "ru"},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			res, err := idx.Search(tc.query, 5)
			require.NoError(t, err)
			require.NotEmpty(t, res.Articles)
			assert.Equal(t, tc.want, res.Articles[0].KBID)
			assert.True(t, res.Confidence.LikelyRelevant)
		})
	}
}

func TestSearchBeforeAnySyncFindsNothing(t *testing.T) {
	idx, err := Open(t.TempDir(), DefaultOptions())
	require.NoError(t, err)
	defer idx.Close()
	res, err := idx.Search("guard", 5)
	require.NoError(t, err)
	assert.Empty(t, res.Articles)
	assert.False(t, res.Confidence.LikelyRelevant)
}

func TestAClosedIndexSaysSo(t *testing.T) {
	idx, err := Open(t.TempDir(), DefaultOptions())
	require.NoError(t, err)
	_, err = idx.Sync(articleDocs(2, "v1"))
	require.NoError(t, err)
	require.NoError(t, idx.Close())
	require.NoError(t, idx.Close(), "closing twice is harmless")
	_, err = idx.Search("alpha", 5)
	assert.ErrorIs(t, err, errClosed)
	_, err = idx.Sync(articleDocs(2, "v2"))
	assert.ErrorIs(t, err, errClosed)
}
