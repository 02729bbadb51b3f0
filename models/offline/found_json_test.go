package offline

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/cloudwego/eino/schema"
)

// FuzzSearchArticles: the engine reads a search result as json.Unmarshal
// into the fields it needs would.
func FuzzSearchArticles(f *testing.F) {
	for _, s := range []string{
		`{"query":"guard","articles":[{"kb_id":"g","title":"The \"guard\"","url":"","tags":["a"],"score":0.83,"chunks":[{"id":"g#1","heading":"G \u003e M","text":"Set\nit.","score":0.5,"has_code":true}]}],"confidence":{"top_score":0.9,"mean_top_k":0.5,"score_gap":0.1,"n_above_threshold":2,"likely_relevant":true}}`,
		`{"query":"q","articles":[],"confidence":{"top_score":0,"mean_top_k":0,"score_gap":0,"n_above_threshold":0,"likely_relevant":false}}`,
		`{"articles":null}`, `{"articles":[{"kb_id":1}]}`, `{"Articles":[{"KB_ID":"x"}]}`, `{"other":{"x":[1,null]}}`, `error: boom`,
		`{"articles":[{"chunks":[{"text":"\ud83d\ude00"}]}]}`, "{\"articles\":[{\"title\":\"\xff\"}]}", `[]`, `null`, `{"query":"a"} `,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		var res struct {
			Articles []struct {
				KBID   string        `json:"kb_id"`
				Title  string        `json:"title"`
				Chunks []searchChunk `json:"chunks"`
			} `json:"articles"`
			Confidence struct {
				LikelyRelevant bool `json:"likely_relevant"`
			} `json:"confidence"`
		}
		wantOK := json.Unmarshal([]byte(content), &res) == nil
		got, relevant, ok := searchArticles(content, nil)
		if ok != wantOK {
			t.Fatalf("searchArticles(%q): ok %v, encoding/json %v", content, ok, wantOK)
		}
		if !ok {
			return
		}
		if relevant != res.Confidence.LikelyRelevant {
			t.Fatalf("searchArticles(%q): relevant %v, encoding/json %v", content, relevant, res.Confidence.LikelyRelevant)
		}
		want, _ := json.Marshal(res.Articles)
		have, _ := json.Marshal(got)
		if string(want) != string(have) || (got == nil) != (res.Articles == nil) {
			t.Fatalf("searchArticles(%q) = %s, encoding/json reads %s", content, have, want)
		}
	})
}

// foundByJSON is foundArticles with encoding/json.
func foundByJSON(in []*schema.Message, start int) (out []found, relevant bool) {
	at := map[string]int{}
	have := map[[3]string]bool{}
	for i := start + 1; i < len(in); i++ {
		if in[i].Role != schema.Tool {
			continue
		}
		var res struct {
			Articles []struct {
				KBID   string        `json:"kb_id"`
				Title  string        `json:"title"`
				Chunks []searchChunk `json:"chunks"`
			} `json:"articles"`
			Confidence struct {
				LikelyRelevant bool `json:"likely_relevant"`
			} `json:"confidence"`
		}
		if json.Unmarshal([]byte(in[i].Content), &res) != nil {
			continue
		}
		relevant = relevant || res.Confidence.LikelyRelevant
		for _, a := range res.Articles {
			n, seen := at[a.KBID]
			if !seen {
				n = len(out)
				at[a.KBID] = n
				out = append(out, found{id: a.KBID, title: a.Title})
			}
			for _, c := range a.Chunks {
				k := [3]string{a.KBID, c.ID}
				if c.ID == "" {
					k = [3]string{a.KBID, "\x00" + c.Heading, c.Text}
				}
				if !have[k] {
					have[k] = true
					out[n].chunks = append(out[n].chunks, c)
				}
			}
		}
	}
	return out, relevant
}

// FuzzFoundArticles: the articles of a turn's searches are read as
// encoding/json read them, an article two searches found once with the
// chunks of both.
func FuzzFoundArticles(f *testing.F) {
	a := `{"query":"q","articles":[{"kb_id":"a","title":"A","url":"","score":1,"chunks":[{"id":"a#1","text":"one.","score":1}]}],"confidence":{"top_score":1,"mean_top_k":1,"score_gap":1,"n_above_threshold":1,"likely_relevant":true}}`
	b := `{"query":"q","articles":[{"kb_id":"a","title":"A","url":"","score":1,"chunks":[{"id":"a#2","text":"two.","score":1}]},{"chunks":[{"text":"x\ny"}],"kb_id":"b","title":"B","url":"","score":1}],"confidence":{"top_score":1,"mean_top_k":1,"score_gap":1,"n_above_threshold":1,"likely_relevant":true}}`
	f.Add(a, b)
	f.Add(b, a)
	f.Add(`{"articles":[{"kb_id":"","chunks":[{"text":"e"}]}]}`, `{"articles":[{"chunks":[{"text":"late id"}],"kb_id":"z"}]}`)
	f.Fuzz(func(t *testing.T, first, second string) {
		in := []*schema.Message{schema.UserMessage("q"), schema.ToolMessage(first, "1"), schema.ToolMessage(second, "2")}
		got, relevant := foundArticles(in, 0)
		want, wantRelevant := foundByJSON(in, 0)
		for _, fs := range [][]found{got, want} {
			for i := range fs {
				if len(fs[i].chunks) == 0 {
					fs[i].chunks = nil // an article found without chunks: nil or empty alike
				}
			}
		}
		if !reflect.DeepEqual(got, want) || relevant != wantRelevant {
			t.Fatalf("foundArticles = %#v, %v; encoding/json reads %#v, %v", got, relevant, want, wantRelevant)
		}
	})
}

func TestTwoSearchesOfOneArticleGiveTheChunksOfBoth(t *testing.T) {
	first := `{"query":"q","articles":[{"kb_id":"a","title":"A","url":"","score":1,"chunks":[{"id":"a#1","heading":"A","text":"one.","score":1}]}],"confidence":{"top_score":1,"mean_top_k":1,"score_gap":1,"n_above_threshold":1,"likely_relevant":true}}`
	second := `{"query":"r","articles":[{"kb_id":"a","title":"A","url":"","score":1,"chunks":[{"id":"a#2","heading":"A > B","text":"two.","score":1},{"id":"a#1","heading":"A","text":"one.","score":0.5}]}],"confidence":{"top_score":1,"mean_top_k":1,"score_gap":1,"n_above_threshold":1,"likely_relevant":true}}`
	in := []*schema.Message{schema.UserMessage("q"), schema.ToolMessage(first, "1"), schema.ToolMessage(second, "2")}
	got, _ := foundArticles(in, 0)
	want := []found{{id: "a", title: "A", chunks: []searchChunk{{ID: "a#1", Heading: "A", Text: "one."}, {ID: "a#2", Heading: "A > B", Text: "two."}}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("foundArticles = %#v, want %#v", got, want)
	}
}
