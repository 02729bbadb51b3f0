package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/kb"
)

// filler is a paragraph of about n tokens (estimateTokens) on nothing asked.
func filler(n int) string {
	return strings.TrimSpace(strings.Repeat("lorem ipsum dolor ", n/6))
}

func found(query string, articles ...contracts.Article) kb.Result {
	return kb.Result{Query: query, Articles: articles, Confidence: contracts.RetrievalConfidence{TopScore: 3, LikelyRelevant: true}}
}

func article(id string, chunks ...string) contracts.Article {
	a := contracts.Article{KBID: id, Title: id}
	for i, text := range chunks {
		a.Chunks = append(a.Chunks, contracts.Chunk{ID: id + string(rune('0'+i)), Heading: "Section", Text: text})
	}
	return a
}

func TestCompress(t *testing.T) {
	answer := "Set the guard mode with guard.mode in the configuration."
	big := found("guard mode configuration",
		article("guard", "Section\n\n"+filler(300)+"\n\n"+answer+"\n\n"+filler(300)),
		article("other", filler(300), "Section\n\nThe guard mode is enforce by default."))
	for _, tc := range []struct {
		name   string
		res    kb.Result
		tokens int
		check  func(t *testing.T, got kb.Result)
	}{
		{"within the budget: as it is", big, 10_000, func(t *testing.T, got kb.Result) { assert.Equal(t, big, got) }},
		{"0: as it is", big, 0, func(t *testing.T, got kb.Result) { assert.Equal(t, big, got) }},
		{"over it: the passages that answer, with their heading", big, 100, func(t *testing.T, got kb.Result) {
			require.Len(t, got.Articles, 2, "no article disappears")
			assert.Equal(t, "Section\n\n"+answer, got.Articles[0].Chunks[0].Text)
			require.Len(t, got.Articles[1].Chunks, 1, "a chunk left with nothing is left out")
			assert.Equal(t, "Section\n\nThe guard mode is enforce by default.", got.Articles[1].Chunks[0].Text)
			assert.Equal(t, big.Confidence, got.Confidence, "the retrieval's confidence is the search's")
			assert.LessOrEqual(t, resultTokens(got), 100)
		}},
		{"the first found gets the larger share", big, 250, func(t *testing.T, got kb.Result) {
			assert.Greater(t, resultTokens(kb.Result{Articles: got.Articles[:1]}), resultTokens(kb.Result{Articles: got.Articles[1:]}))
			assert.LessOrEqual(t, resultTokens(got), 250)
		}},
		{"a budget smaller than any passage keeps each article's best", big, 1, func(t *testing.T, got kb.Result) {
			assert.Contains(t, got.Articles[0].Chunks[0].Text, answer)
			assert.Contains(t, got.Articles[1].Chunks[0].Text, "enforce by default")
		}},
		{"code stays whole", found("restore snapshot", article("a", "Section\n\n"+filler(300)+"\n\nRestore the snapshot:\n\n```sh\netcdutl snapshot restore\n\nsnapshot.db\n```")), 50,
			func(t *testing.T, got kb.Result) {
				assert.Equal(t, "Section\n\nRestore the snapshot:\n\n```sh\netcdutl snapshot restore\n\nsnapshot.db\n```", got.Articles[0].Chunks[0].Text)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := cloneResult(tc.res)
			tc.check(t, Compress(tc.res, tc.tokens))
			assert.Equal(t, in, tc.res, "the result given is not changed")
		})
	}
}

func cloneResult(r kb.Result) kb.Result {
	out := r
	out.Articles = nil
	for _, a := range r.Articles {
		a.Chunks = append([]contracts.Chunk(nil), a.Chunks...)
		out.Articles = append(out.Articles, a)
	}
	return out
}

type scriptedSearcher struct {
	res kb.Result
	err error
}

func (s scriptedSearcher) Search(string, int) (kb.Result, error) { return s.res, s.err }

func TestCompressedSearcher(t *testing.T) {
	res := found("guard mode", article("guard", "Section\n\n"+filler(600)+"\n\nThe guard mode is enforce."))
	s := compressed(scriptedSearcher{res: res}, 50)
	got, err := s.(interface {
		SearchContext(context.Context, string, int) (kb.Result, error)
	}).SearchContext(context.Background(), "guard mode", 5)
	require.NoError(t, err)
	assert.Equal(t, "Section\n\nThe guard mode is enforce.", got.Articles[0].Chunks[0].Text)

	inner := scriptedSearcher{res: res}
	assert.Equal(t, inner, compressed(inner, 0), "0 leaves the searcher as it is")

	failing := compressed(scriptedSearcher{err: errors.New("index closed")}, 50)
	_, err = failing.Search("q", 5)
	assert.EqualError(t, err, "index closed")
}
