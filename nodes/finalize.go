package nodes

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/templates"
)

// Finalize configures the end of a passed turn.
type Finalize struct {
	Texts    *templates.Set
	Product  string
	Language string // the fallback answer language
}

// Node publishes the accepted draft as the answer with the sources it
// cites. Articles are numbered in the order the searches returned them,
// the order the agent's [n] citations refer to; only cited ones are
// listed, or all of them when the draft cites none. Cited articles are
// numbered again without gaps, in the text as in the list ([1], [3], [6]
// become [1], [2], [3]), and come first in the turn's articles, so that
// the n-th article is still the one [n] cites.
//
// A PASS that restricts the scope (DT-005: weak evidence on the FAST
// track) opens the answer with a notice that it covers only what the
// knowledge base says and is no definitive answer (seed 004 §3); the
// Guardian never edits the draft itself.
func (c Finalize) Node() Func {
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		lang := answerLanguage(s, c.Texts, c.Language)
		s.Answer = strings.TrimSpace(s.Draft)
		cited := citedOnly(s.Answer, len(s.Articles))
		if cited != nil {
			s.Answer, s.Articles = renumber(s.Answer, s.Articles, cited)
		}
		if s.Verdict != nil && slices.Contains(s.Verdict.RequiredActions, contracts.ActRestrictScope) {
			notice, err := text(c.Texts, lang, "restricted_scope_notice", c.Product)
			if err != nil {
				return nil, err
			}
			s.Answer = notice + "\n\n" + s.Answer
		}
		addUI(ctx, s, contracts.UIAnswer, s.Answer)
		if len(s.Articles) == 0 {
			return s, nil
		}
		heading, err := text(c.Texts, lang, "sources_heading", c.Product)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		b.WriteString(heading)
		listed := len(s.Articles)
		if cited != nil {
			listed = len(cited)
		}
		for i, a := range s.Articles[:listed] {
			fmt.Fprintf(&b, "\n[%d] %s", i+1, a.Title)
			if a.URL != "" {
				b.WriteString(" — " + a.URL)
			}
		}
		addUI(ctx, s, contracts.UISources, b.String())
		s.Answer += "\n\n" + b.String()
		return s, nil
	}
}

// citation is a citation mark [n] in an answer.
var citation = regexp.MustCompile(`\[(\d{1,4})\]`)

// citedOnly finds the citation numbers [n] the answer uses, 1..n, or nil
// if none.
func citedOnly(answer string, n int) map[int]bool {
	var cited map[int]bool
	for _, m := range citation.FindAllStringSubmatch(answer, -1) {
		if i, _ := strconv.Atoi(m[1]); i >= 1 && i <= n {
			if cited == nil {
				cited = map[int]bool{}
			}
			cited[i] = true
		}
	}
	return cited
}

// renumber gives the cited articles the numbers 1..len(cited) in their
// order, rewrites the answer's marks to match and puts the cited articles
// first; a mark that names no article stays as written.
func renumber(answer string, articles []contracts.Article, cited map[int]bool) (string, []contracts.Article) {
	newNumber := make(map[int]int, len(cited))
	out := make([]contracts.Article, 0, len(articles))
	for i, a := range articles {
		if cited[i+1] {
			out = append(out, a)
			newNumber[i+1] = len(out)
		}
	}
	for i, a := range articles {
		if !cited[i+1] {
			out = append(out, a)
		}
	}
	answer = citation.ReplaceAllStringFunc(answer, func(mark string) string {
		i, _ := strconv.Atoi(mark[1 : len(mark)-1])
		if n, ok := newNumber[i]; ok {
			return "[" + strconv.Itoa(n) + "]"
		}
		return mark
	})
	return answer, out
}
