package batch

import (
	"fmt"
	"strconv"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/templates"
)

// Columns names the input columns a request is made of.
type Columns struct {
	ID          string `yaml:"id"`
	Subject     string `yaml:"subject"`
	Description string `yaml:"description"` // HTML, converted to Markdown
	// Role, when set, is the column of the asker's role, which the query
	// policy's denied_request_types are keyed by; empty: no role.
	Role string `yaml:"role"`
}

// DefaultColumns are the support desk export's own names.
func DefaultColumns() Columns {
	return Columns{ID: "ID", Subject: "Название", Description: "Описание"}
}

// resultColumnKeys are the columns added to every output row, in this
// order: their label keys are "column_" and the key; the English labels
// are these keys themselves, names a program can rely on.
var resultColumnKeys = []string{"articles", "found_chunks", "answer", "spam_score", "retrieval_confidence",
	"query_count", "user_intent", "action", "verdict", "safety_level", "error"}

// ResultColumns are the names of the added columns in lang (ru or en; a
// language the labels lack reads English).
func ResultColumns(lang string) []string {
	labels, err := templates.UILabels()
	if err != nil { // the embedded labels are checked by their tests
		return resultColumnKeys
	}
	return resultColumns(labels, lang)
}

func resultColumns(labels templates.Catalogue, lang string) []string {
	out := make([]string, len(resultColumnKeys))
	for i, k := range resultColumnKeys {
		out[i] = labels.Label(lang, "column_"+k, nil)
	}
	return out
}

// request is the turn's message: "# subject", a blank line, and the
// description as Markdown; either part may be missing.
func request(subject, description string) (string, error) {
	subject, description = strings.TrimSpace(subject), strings.TrimSpace(description)
	body := description
	if strings.Contains(description, "<") {
		md, err := htmltomarkdown.ConvertString(description)
		if err != nil {
			return "", fmt.Errorf("description: HTML to Markdown: %w", err)
		}
		body = strings.TrimSpace(md)
	}
	switch {
	case subject == "":
		return body, nil
	case body == "":
		return "# " + subject, nil
	}
	return "# " + subject + "\n\n" + body, nil
}

// resultCells are the added columns of a row; a row without a record (not
// run yet) has them empty.
func (t Texts) resultCells(rec *Record) []any {
	cells := make([]any, len(resultColumnKeys))
	if rec == nil {
		return cells
	}
	cells[10] = rec.Error
	res := rec.Result
	if res == nil {
		return cells
	}
	cells[0], cells[1], cells[2] = t.articles(res), chunks(res), t.AnswerCell(*res, rec.Request)
	if res.Plan != nil && res.Action != contracts.ActionGuardianBlock {
		// A Guardian's refusal shows nothing of how the request was understood (seed 000 template 4).
		cells[3], cells[6] = res.Plan.SpamScore, res.Plan.UserIntent
	}
	if c, ok := confidence(res.QueryTraces); ok {
		cells[4] = c
	}
	cells[5], cells[7] = len(res.QueryTraces), string(res.Action)
	if res.Verdict != nil {
		cells[8] = string(res.Verdict.Verdict)
	}
	if res.Moderation != nil {
		cells[9] = string(res.Moderation.Level)
	}
	if res.Failure != nil && rec.Error == "" {
		cells[10] = res.Failure.Message
	}
	return cells
}

// confidence is the best query's mean top-k chunk score (seed 003 §4).
func confidence(traces []contracts.QueryTrace) (float64, bool) {
	best, found := 0.0, false
	for _, t := range traces {
		if t.Error == "" {
			best, found = max(best, t.Confidence.MeanTopK), true
		}
	}
	return best, found
}

// articles lists each query's articles with their scores, then the set the
// answer drew on, in the labels' language.
func (t Texts) articles(res *contracts.StructuredResult) string {
	var b strings.Builder
	for i, q := range res.QueryTraces {
		b.WriteString(t.label("batch_query", map[string]string{"n": strconv.Itoa(i + 1), "query": q.Query}) + "\n")
		if q.Error != "" {
			fmt.Fprintf(&b, "- error: %s\n", q.Error)
		}
		for _, a := range q.Articles {
			b.WriteString(t.article(a))
		}
	}
	if len(res.Articles) > 0 {
		b.WriteString(t.label("batch_all_articles", nil) + "\n")
		for _, a := range res.Articles {
			b.WriteString(t.article(a))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func (t Texts) article(a contracts.Article) string {
	score := t.label("batch_score", map[string]string{"score": strconv.FormatFloat(a.Score, 'f', 4, 64)})
	return fmt.Sprintf("- %s - %s (%s)%s\n", a.KBID, a.Title, score, link(a.URL))
}

func link(url string) string {
	if url == "" {
		return ""
	}
	return " " + url
}

// chunks lists the chunks found per article: the first two and the last,
// each clipped, as the origin's reports did.
func chunks(res *contracts.StructuredResult) string {
	if len(res.QueryTraces) == 0 {
		return ""
	}
	var b strings.Builder
	for _, a := range res.Articles {
		fmt.Fprintf(&b, "- %s:\n", a.KBID)
		for i, c := range a.Chunks {
			if len(a.Chunks) > 3 && i == 2 {
				b.WriteString("   - …\n")
			}
			if len(a.Chunks) > 3 && i >= 2 && i < len(a.Chunks)-1 {
				continue
			}
			fmt.Fprintf(&b, "   - [%s] (score %.4f) %s\n", c.ID, c.Score, clip(c.Text, 200))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
