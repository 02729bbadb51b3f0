package batch

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/templates"
)

// Texts are the words of the output table: the names of the added columns
// and the labels of the articles column in Language, and the answer
// column's disclaimer and recommended-articles header (seed 003 §10) in
// each answer's own language, naming Product.
type Texts struct {
	// Language of the column names and labels, ru or en; "" is en.
	Language string
	// Product fills {product} in the disclaimer; "" is sgrgraph, the
	// product of the embedded documentation.
	Product string
	// Answers is the text catalogue; nil is the embedded one.
	Answers *templates.Set
	// Labels are the label catalogue; nil is the embedded one.
	Labels templates.Catalogue
}

// NewTexts are the embedded texts and labels, the column names in lang.
func NewTexts(lang, product string) (Texts, error) {
	t := Texts{Language: lang, Product: product}
	err := t.settle()
	return t, err
}

func (t *Texts) settle() error {
	t.Language, t.Product = cmp.Or(t.Language, "en"), cmp.Or(t.Product, "sgrgraph")
	if t.Answers == nil {
		s, err := templates.Default()
		if err != nil {
			return err
		}
		t.Answers = s
	}
	if t.Labels == nil {
		l, err := templates.UILabels()
		if err != nil {
			return err
		}
		t.Labels = l
	}
	return nil
}

func (t Texts) label(key string, vars map[string]string) string {
	return t.Labels.Label(t.Language, key, vars)
}

// AnswerCell is the answer column of a result: for an answer the model
// wrote, the AI disclaimer, the recommended articles (the sources the
// answer cites, numbered as it cites them) and the answer; a canned reply
// (a refusal, a question back) as it is. The language is the answer's,
// else the request's.
func (t Texts) AnswerCell(res contracts.StructuredResult, request string) string {
	body, ok := uiMessage(res, contracts.UIAnswer)
	if !ok || t.Answers == nil {
		return res.Answer
	}
	lang := t.answerLanguage(res.Answer, request)
	vars := map[string]string{"product": t.Product}
	disclaimer, err1 := t.Answers.Text(lang, "answer_disclaimer", vars)
	heading, err2 := t.Answers.Text(lang, "recommended_articles", vars)
	if err1 != nil || err2 != nil {
		return res.Answer
	}
	var b strings.Builder
	b.WriteString(disclaimer)
	if sources, ok := uiMessage(res, contracts.UISources); ok {
		_, list, _ := strings.Cut(sources, "\n") // the list without its "Sources:" heading
		fmt.Fprintf(&b, "\n\n%s\n%s", heading, list)
	}
	b.WriteString("\n\n" + strings.TrimSpace(body))
	return b.String()
}

// answerLanguage is the catalogue language of the answer's letters, else
// the request's, else the first the catalogue has.
func (t Texts) answerLanguage(answer, request string) string {
	langs := t.Answers.Languages()
	for _, l := range []string{templates.DetectLanguage(answer), templates.DetectLanguage(request), t.Language} {
		for _, have := range langs {
			if l == have {
				return l
			}
		}
	}
	return langs[0]
}

func uiMessage(res contracts.StructuredResult, kind contracts.UIType) (string, bool) {
	for i := len(res.UI) - 1; i >= 0; i-- {
		if res.UI[i].Type == kind {
			return res.UI[i].Content, true
		}
	}
	return "", false
}
