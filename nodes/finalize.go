package nodes

import (
	"context"
	"fmt"
	"slices"
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
// listed, or all of them when the draft cites none.
//
// A PASS that restricts the scope (DT-005: weak evidence on the FAST
// track) opens the answer with a notice that it covers only what the
// knowledge base says and is no definitive answer (seed 004 §3); the
// Guardian never edits the draft itself.
func (c Finalize) Node() Func {
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		lang := answerLanguage(s, c.Texts, c.Language)
		s.Answer = strings.TrimSpace(s.Draft)
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
		cited := citedOnly(s.Answer, len(s.Articles))
		for i, a := range s.Articles {
			if cited != nil && !cited[i+1] {
				continue
			}
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

// citedOnly finds the citation numbers [n] the answer uses, or nil if none.
func citedOnly(answer string, n int) map[int]bool {
	var cited map[int]bool
	for i := 1; i <= n; i++ {
		if strings.Contains(answer, fmt.Sprintf("[%d]", i)) {
			if cited == nil {
				cited = map[int]bool{}
			}
			cited[i] = true
		}
	}
	return cited
}
