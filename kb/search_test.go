package kb

import (
	"strings"
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

// Chunks of equal score rank by their IDs, not by the order the index
// holds them: that order depends on how the index was built (files are
// read in parallel, and added by later syncs), and with it which of an
// article's equal chunks a search returned.
func TestEqualScoresRankByChunkID(t *testing.T) {
	kbDir, cache := t.TempDir(), t.TempDir()
	var b strings.Builder
	b.WriteString("# B\n")
	for _, h := range []string{"One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"} {
		b.WriteString("\n## " + h + "\n\nSet a cookie for the session.\n")
	}
	writeFiles(t, kbDir, map[string]string{"b.md": b.String()})
	sync := func() {
		docs, errs := LoadDir(kbDir)
		require.Empty(t, errs)
		idx, err := Open(cache, DefaultOptions())
		require.NoError(t, err)
		defer idx.Close()
		_, err = idx.Sync(docs)
		require.NoError(t, err)
	}
	sync()
	writeFiles(t, kbDir, map[string]string{"a.md": "# A\n\n## One\n\nSet a cookie for the session.\n"})
	sync() // a's chunk is indexed after b's
	built, err := Open(cache, DefaultOptions())
	require.NoError(t, err)
	defer built.Close()
	fresh, _ := openSynced(t, kbDir)
	for name, idx := range map[string]*Index{"built in two steps": built, "built at once": fresh} {
		res, err := idx.Search("cookie", 2)
		require.NoError(t, err)
		require.Len(t, res.Articles, 2, name)
		var ids []string
		for _, c := range res.Articles[1].Chunks {
			ids = append(ids, c.ID)
		}
		assert.Equal(t, []string{"b#0", "b#1", "b#2"}, ids, "%s: of equal scores the lower ID first", name)
	}
}
