package offline

import (
	"encoding/json"
	"regexp"
	"strings"
	"unicode"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/templates"
)

// ReviewPrefix opens the Guardian's review of a rejected answer in the
// context (nodes.ReviewMarker); the engine reads the required actions after it.
const ReviewPrefix = "⟦Guardian review⟧"

var (
	riskLevel  = regexp.MustCompile(`Risk Level: (\w+)`)
	answerIn   = regexp.MustCompile(`Answer in (Russian|English)\.`)
	languageOf = map[string]string{"Russian": "ru", "English": "en"}
)

// turn is what the engine reads off its context.
type turn struct {
	request  string // the user's request, with an answered clarification folded in
	start    int    // index of the request's user message
	review   string // the latest Guardian review, if the last user message is one
	searched bool   // a tool answered after the last user message
	guardian string // the risk level glued to the system prompt
	language string // the answer language the system prompt asks for
}

func (e *Engine) read(in []*schema.Message) turn {
	var t turn
	last := -1
	for i := len(in) - 1; i >= 0; i-- {
		m := in[i]
		if m.Role == schema.System {
			if g := riskLevel.FindStringSubmatch(m.Content); g != nil {
				t.guardian = g[1]
			}
			if g := answerIn.FindStringSubmatch(m.Content); g != nil {
				t.language = languageOf[g[1]]
			}
			continue
		}
		if m.Role != schema.User {
			continue
		}
		if last < 0 {
			last = i
		}
		if strings.HasPrefix(m.Content, ReviewPrefix) {
			if t.review == "" && i == last {
				t.review = m.Content
			}
			continue
		}
		if t.request == "" {
			t.request, t.start = m.Content, i
			continue
		}
		// The user message before the request: when it needed a
		// clarification, the request answers it, and both are the question.
		if e.analyse(m.Content, "").plan.Action == "clarify" {
			t.request = m.Content + " " + t.request
		}
		break
	}
	if t.request != "" && t.review == "" {
		t.request = e.followUp(t.request, in[:t.start])
	}
	t.searched = last >= 0 && searchedSince(in, last)
	return t
}

// searchedSince: a tool answered one of the engine's own calls after
// message i. The plan that the directive and trace injection modes put in
// the context as a tool-call pair is no search: counting it made the
// engine answer before it searched, and the Guardian then asked for a retry.
func searchedSince(in []*schema.Message, i int) bool {
	planCalls := map[string]bool{}
	for _, m := range in[i+1:] {
		for _, c := range m.ToolCalls {
			if c.Function.Name == planTool {
				planCalls[c.ID] = true
			}
		}
		if m.Role == schema.Tool && m.ToolName != planTool && !planCalls[m.ToolCallID] {
			return true
		}
	}
	return false
}

// plannedQueries are the subqueries of this turn's plan as the context
// shows them: the synthetic message's list, or the plan JSON of a
// tool-call injection.
func plannedQueries(in []*schema.Message, start int) []string {
	planCalls := map[string]bool{}
	for i := start + 1; i < len(in); i++ {
		m := in[i]
		for _, c := range m.ToolCalls {
			if c.Function.Name == planTool {
				planCalls[c.ID] = true
			}
		}
		if m.Role == schema.Assistant {
			if q, ok := templates.Subqueries(m.Content); ok {
				return q
			}
		}
		if m.Role == schema.Tool && (m.ToolName == planTool || planCalls[m.ToolCallID]) {
			var p struct {
				Subqueries []string `json:"subqueries"`
			}
			if json.Unmarshal([]byte(m.Content), &p) == nil && len(p.Subqueries) > 0 {
				return p.Subqueries
			}
			if q, ok := templates.Subqueries(m.Content); ok {
				return q
			}
		}
	}
	return nil
}

// searchArticle is what the engine reads of an article in a search result.
type searchArticle struct {
	KBID   string        `json:"kb_id"`
	Title  string        `json:"title"`
	Chunks []searchChunk `json:"chunks"`
}

type searchChunk struct {
	ID      string `json:"id"`
	Heading string `json:"heading"`
	Text    string `json:"text"`
}

// searchArticles reads the articles of a tool's answer; a chunk known
// holds (by article and chunk id) may come without its heading and text.
// relevant is whether the search found something likely relevant. ok is
// false when it is no JSON object with them in their shape.
func searchArticles(content string, known func(kbID, chunkID string) bool) (articles []searchArticle, relevant, ok bool) {
	if articles, relevant, ok := readFound(content, known); ok {
		return articles, relevant, true
	}
	var res struct {
		Articles   []searchArticle `json:"articles"`
		Confidence struct {
			LikelyRelevant bool `json:"likely_relevant"`
		} `json:"confidence"`
	}
	err := json.Unmarshal([]byte(content), &res)
	return res.Articles, res.Confidence.LikelyRelevant, err == nil
}

// found is one article the searches of this turn returned.
type found struct {
	id, title string
	chunks    []searchChunk
	// titleStems are titleStems(title) when worked out already (the
	// knowledge base's titles, Reading); nil when not.
	titleStems []string
	brand      string // brandOf(title), worked out with titleStems
	// headings are the knowledge base's titles and headings (headingsOf),
	// nil when not known: its lines that repeat one are not quoted.
	headings map[string]bool
}

// foundArticles reads every search result after start, articles in the
// order they first appear: the order citations are numbered in. An
// article two searches found holds the chunks of both, each once: the
// search aimed at its section ("… warranty information") returns the
// chunks the broader one did not, and they are what answers. relevant:
// one of the searches found something likely relevant.
func foundArticles(in []*schema.Message, start int) (out []found, relevant bool) {
	at := map[string]int{}
	have := map[[3]string]bool{} // article and chunk id, or article, heading and text
	key := func(kbID string, c searchChunk) [3]string {
		if c.ID != "" {
			return [3]string{kbID, c.ID}
		}
		return [3]string{kbID, "\x00" + c.Heading, c.Text}
	}
	known := func(kbID, chunkID string) bool { return have[[3]string{kbID, chunkID}] }
	for i := start + 1; i < len(in); i++ {
		if in[i].Role != schema.Tool {
			continue
		}
		articles, likely, ok := searchArticles(in[i].Content, known)
		if !ok {
			continue
		}
		relevant = relevant || likely
		for _, a := range articles {
			n, seen := at[a.KBID]
			if !seen {
				n = len(out)
				at[a.KBID] = n
				// Its new chunks are kept where they were read, not copied.
				out = append(out, found{id: a.KBID, title: a.Title, chunks: a.Chunks[:0]})
			}
			for _, c := range a.Chunks {
				if k := key(a.KBID, c); !have[k] {
					have[k] = true
					out[n].chunks = append(out[n].chunks, c)
				}
			}
		}
	}
	return out, relevant
}

// pointers are words that point at something said before: "how much does
// it weigh?", "сколько он весит?".
var pointers = set("it", "its", "it's", "they", "them", "their",
	"он", "она", "оно", "они", "его", "её", "ее", "их", "ему", "ей", "им", "нём", "нем", "ней", "ним", "него", "неё", "нее")

// refersBack: the request has a word that points back, or "this one",
// "that one".
func refersBack(request string) bool {
	words := strings.FieldsFunc(strings.ToLower(request), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' })
	for i, w := range words {
		if pointers[strings.ReplaceAll(w, "’", "'")] || w == "one" && i > 0 && (words[i-1] == "this" || words[i-1] == "that") {
			return true
		}
	}
	return false
}

// followUp is a request that speaks of something named before ("is it
// waterproof?" after a question about the TrailMaster X4 Tent), with that
// name added: the latest title the earlier questions and answers named
// alone, when the request names none itself ("what is its waterproof
// rating?" after an answer about the tent the user bought). A request that
// names a title, or points at nothing, is left as it is.
func (e *Engine) followUp(request string, earlier []*schema.Message) string {
	if !refersBack(request) || e.namedTitle(contentWords(e.inKBLanguage(request))) != "" {
		return request
	}
	for i := len(earlier) - 1; i >= 0; i-- {
		m := earlier[i]
		if m.Role != schema.User && m.Role != schema.Assistant || strings.HasPrefix(m.Content, ReviewPrefix) {
			continue
		}
		if title := e.namedTitle(contentWords(e.inKBLanguage(m.Content))); title != "" {
			return strings.TrimSpace(request) + " (" + title + ")"
		}
	}
	return request
}
