package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
)

// TestAnswerTermRecall reports, on the outdoor-gear question/answer set
// (the manuals' FAQ, held out of the knowledge base), the share of the
// reference answers' content words that the offline engine's answers
// carry, and the share the three best paragraphs of a plain BM25 search
// carry. The target is 30% above BM25; the engine does not reach it yet
// (docs/offline-engine.md gives both figures), so the test holds the level
// reached: it fails when the engine falls to BM25 or below.
func TestAnswerTermRecall(t *testing.T) {
	type qa struct {
		Question string `json:"question"`
		Answer   string `json:"answer"`
	}
	var set []qa
	f, err := os.Open("testdata/qa/outdoor.jsonl")
	require.NoError(t, err)
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var x qa
		require.NoError(t, json.Unmarshal(sc.Bytes(), &x))
		set = append(set, x)
	}
	a := newAgent(t, agent.Options{}, func(c *config.Config) { c.KB.Dir = "testdata/kbs/outdoor"; c.Product = "Contoso Outdoors" })
	bm := newBM25(corpusOf(t, "outdoor"))
	var engine, baseline, words float64
	longest := 0
	for i, x := range set {
		s, err := a.RunState(context.Background(), agent.Turn{SessionID: "qa" + string(rune('a'+i)), Message: x.Question})
		require.NoError(t, err)
		answer := s.Draft
		if answer == "" {
			answer = s.Answer
		}
		engine += termRecall(x.Answer, answer)
		if os.Getenv("SHOW_QA") != "" && i%8 == 0 {
			bmText := strings.Join(bm.top(x.Question, 3), "\n")
			t.Logf("Q: %s\nREF: %s\nA[%s %.2f]: %s\nBM25 %.2f: %.300s\n", x.Question, x.Answer, s.Action, termRecall(x.Answer, answer), answer, termRecall(x.Answer, bmText), bmText)
		}
		baseline += termRecall(x.Answer, strings.Join(bm.top(x.Question, 3), "\n"))
		words += float64(len(strings.Fields(answer)))
		longest = max(longest, len(strings.Fields(answer)))
	}
	n := float64(len(set))
	engine, baseline = engine/n, baseline/n
	t.Logf("answer-term recall on %d questions: offline engine %.3f (%.0f words an answer), three best BM25 paragraphs %.3f: %+.0f%%",
		len(set), engine, words/n, baseline, 100*(engine/baseline-1))
	if engine <= baseline {
		t.Errorf("answer-term recall %.3f is not above BM25's %.3f", engine, baseline)
	}
	if longest > 120 {
		t.Errorf("an answer has %d words, want at most 120", longest)
	}
}

// recallWords are a text's content words cut to five letters, the way
// the reference's words are looked for in an answer.
func recallWords(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) < 2 || recallStop[w] {
			continue
		}
		if r := []rune(w); len(r) > 5 {
			w = string(r[:5])
		}
		out = append(out, w)
	}
	return out
}

var recallStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if of to in on at by for with about from into is are was were be been
		it its this that these those you your we our they their can could should would will may might do does did not no yes
		as so than then there here also very too more most such which what who how when where why up out all any some just`) {
		m[w] = true
	}
	return m
}()

// termRecall is the share of the reference's distinct content words the
// answer contains.
func termRecall(reference, answer string) float64 {
	have := map[string]bool{}
	for _, w := range recallWords(answer) {
		have[w] = true
	}
	want := map[string]bool{}
	for _, w := range recallWords(reference) {
		want[w] = true
	}
	if len(want) == 0 {
		return 0
	}
	found := 0
	for w := range want {
		if have[w] {
			found++
		}
	}
	return float64(found) / float64(len(want))
}

// bm25 ranks the paragraphs of a knowledge base (k1 1.2, b 0.75).
type bm25 struct {
	paragraphs []string
	terms      []map[string]float64
	lengths    []float64
	df         map[string]float64
	avg        float64
}

func newBM25(articles []string) *bm25 {
	b := &bm25{df: map[string]float64{}}
	for _, a := range articles {
		for _, p := range strings.Split(a, "\n\n") {
			ws := recallWords(p)
			if len(ws) == 0 {
				continue
			}
			tf := map[string]float64{}
			for _, w := range ws {
				tf[w]++
			}
			for w := range tf {
				b.df[w]++
			}
			b.paragraphs = append(b.paragraphs, p)
			b.terms = append(b.terms, tf)
			b.lengths = append(b.lengths, float64(len(ws)))
			b.avg += float64(len(ws))
		}
	}
	b.avg /= float64(len(b.paragraphs))
	return b
}

func (b *bm25) top(query string, k int) []string {
	n := float64(len(b.paragraphs))
	scores := make([]float64, len(b.paragraphs))
	order := make([]int, len(b.paragraphs))
	for i := range b.paragraphs {
		order[i] = i
		for _, w := range recallWords(query) {
			tf := b.terms[i][w]
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (n-b.df[w]+0.5)/(b.df[w]+0.5))
			scores[i] += idf * tf * 2.2 / (tf + 1.2*(0.25+0.75*b.lengths[i]/b.avg))
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return scores[order[i]] > scores[order[j]] })
	var out []string
	for _, i := range order[:min(k, len(order))] {
		out = append(out, b.paragraphs[i])
	}
	return out
}
