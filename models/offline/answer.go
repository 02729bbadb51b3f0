package offline

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// maxPassages is how many sentences an answer quotes.
const maxPassages = 4

// planCall answers the forced planning call with a filled plan.
func (e *Engine) planCall(in []*schema.Message) (*schema.Message, error) {
	t := e.read(in)
	if strings.TrimSpace(t.request) == "" {
		return nil, fmt.Errorf("offline: no user message to analyse")
	}
	args, err := json.Marshal(e.analyse(t.request, t.guardian).plan)
	if err != nil {
		return nil, fmt.Errorf("offline: encode plan: %w", err)
	}
	return schema.AssistantMessage("", []schema.ToolCall{{ID: callID(0), Type: "function",
		Function: schema.FunctionCall{Name: planTool, Arguments: string(args)}}}), nil
}

// agentStep searches until this attempt has results, then answers.
func (e *Engine) agentStep(in []*schema.Message, o *model.Options) *schema.Message {
	t := e.read(in)
	if t.searched {
		return e.answer(in)
	}
	forced := o.ToolChoice != nil && *o.ToolChoice == schema.ToolChoiceForced
	if t.review == "" && !forced && requestType(t.request) == contracts.RequestCasual {
		return e.greeting(e.answerLanguage(t))
	}
	queries := plannedQueries(in, t.start)
	topK := 0
	if t.review != "" {
		queries, topK = e.retryQueries(t), 10
	}
	if len(queries) == 0 {
		queries = e.analyse(t.request, "").plan.Subqueries
	}
	if len(queries) == 0 { // small talk, yet a search was required
		queries = []string{strings.TrimSpace(t.request)}
	}
	if len(queries) > 3 {
		queries = queries[:3]
	}
	calls := make([]schema.ToolCall, 0, len(queries))
	for i, q := range queries {
		args := map[string]any{"query": q}
		if topK > 0 {
			args["top_k"] = topK
		}
		raw, _ := json.Marshal(args)
		calls = append(calls, schema.ToolCall{ID: callID(len(in)*10 + i), Type: "function",
			Function: schema.FunctionCall{Name: searchTool, Arguments: string(raw)}})
	}
	return schema.AssistantMessage("", calls)
}

// answerLanguage is the language the prompt asks for, else the request's.
func (e *Engine) answerLanguage(t turn) string {
	if t.language != "" {
		return t.language
	}
	return e.language(t.request)
}

// greeting answers small talk without a search.
func (e *Engine) greeting(lang string) *schema.Message {
	if lang == "ru" {
		return schema.AssistantMessage(fmt.Sprintf("Здравствуйте! Я отвечаю на вопросы о %s по его документации: спросите, как его настроить, запустить или расширить.", e.product), nil)
	}
	return schema.AssistantMessage(fmt.Sprintf("Hello! I answer questions about %s from its documentation: ask me how to configure, run or extend it.", e.product), nil)
}

// retryQueries follow the Guardian's review: asked to retrieve more or to
// refine, the engine searches each significant word on its own, longest
// first, where the first attempt searched phrases.
func (e *Engine) retryQueries(t turn) []string {
	content := contentWords(t.request)
	sort.SliceStable(content, func(i, j int) bool { return len([]rune(content[i])) > len([]rune(content[j])) })
	var out []string
	seen := map[string]bool{}
	for _, w := range content {
		if !seen[stem(w)] && !vagueWords[w] {
			seen[stem(w)] = true
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		out = []string{strings.TrimSpace(t.request)}
	}
	return out
}

// passage is one sentence of a found article, scored against the request.
type passage struct {
	text    string
	article int // citation number, from 1
	score   int
	order   int
}

// answer quotes the sentences that share the most words with the request,
// each with the number of its article.
func (e *Engine) answer(in []*schema.Message) *schema.Message {
	t := e.read(in)
	lang := e.answerLanguage(t)
	want := stems(contentWords(t.request))
	var ps []passage
	for n, a := range foundArticles(in, t.start) {
		for _, text := range a.passages {
			for _, s := range sentences(text) {
				score := 0
				for st := range stems(contentWords(s)) {
					if want[st] {
						score++
					}
				}
				if score > 0 {
					ps = append(ps, passage{text: s, article: n + 1, score: score, order: len(ps)})
				}
			}
		}
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].score > ps[j].score })
	if len(ps) > maxPassages {
		ps = ps[:maxPassages]
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].order < ps[j].order })
	if len(ps) == 0 && requestType(t.request) == contracts.RequestCasual {
		return e.greeting(lang)
	}
	if len(ps) == 0 {
		if lang == "ru" {
			return schema.AssistantMessage("В базе знаний не нашлось сведений по этому вопросу.", nil)
		}
		return schema.AssistantMessage("I could not find this in the knowledge base.", nil)
	}
	var b strings.Builder
	if lang == "ru" {
		b.WriteString("Вот что сказано в документации:\n")
	} else {
		b.WriteString("Here is what the documentation says:\n")
	}
	for _, p := range ps {
		fmt.Fprintf(&b, "\n- %s [%d]", p.text, p.article)
	}
	return schema.AssistantMessage(b.String(), nil)
}

// sentences splits a passage into quotable sentences: prose and list
// items only, no code, headings or table rows, none too long to quote.
// Lines of one paragraph or list item are joined first.
func sentences(text string) []string {
	var units []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			units = append(units, strings.Join(cur, " "))
			cur = nil
		}
	}
	fence := false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
			flush()
			fence = !fence
		case fence:
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "|") || strings.Contains(line, " > ") && !strings.ContainsAny(line, ".:"):
			flush()
		case listItem.MatchString(line):
			flush()
			cur = append(cur, listItem.ReplaceAllString(line, ""))
		default:
			cur = append(cur, line)
		}
	}
	flush()
	var out []string
	for _, u := range units {
		if !strings.ContainsAny(u, ".!?:;") {
			continue // a title or a heading path, not a statement
		}
		for _, s := range splitSentences(u) {
			if n := len([]rune(s)); n >= 20 && n <= 400 {
				out = append(out, s)
			}
		}
	}
	return out
}

var listItem = regexp.MustCompile(`^([-*+]|\d+[.)])\s+`)

func splitSentences(line string) []string {
	var out []string
	start := 0
	for i := 0; i < len(line)-1; i++ {
		if (line[i] == '.' || line[i] == '!' || line[i] == '?') && line[i+1] == ' ' {
			out = append(out, strings.TrimSpace(line[start:i+1]))
			start = i + 2
		}
	}
	if rest := strings.TrimSpace(line[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}
