package templates

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/sgrgraph/sgrgraph/contracts"
)

func plan() contracts.SGRPlan {
	return contracts.SGRPlan{
		Topic: "Guard modes", UserIntent: "switch the guard to report mode", Category: "configuration",
		SpamScore: 0.05, SpamReason: "Not spam", IntentConfidence: 0.9,
		Subqueries: []string{"guard mode", "report mode"}, ActionPlan: []string{"search the docs", "answer"},
		Uncertainties: []string{"which version"}, ClarificationQuestion: "Which version do you run?",
	}
}

func TestRender(t *testing.T) {
	s, err := Default()
	require.NoError(t, err)
	tests := []struct {
		action       contracts.Action
		lang         string
		analysis     []string
		response     []string // as the model reads it
		userResponse []string
		notInAnalyis []string
	}{
		{contracts.ActionNormal, "en",
			[]string{`**Topic**: "Guard modes"`, "**Confidence**: High (0.90)", "**Subqueries**:\n- \"guard mode\"\n- \"report mode\"\n", "1. \"search the docs\"\n2. \"answer\""},
			[]string{"I'll look this up in the knowledge base"}, []string{"I'll look this up in the knowledge base and answer from what I find."}, []string{"Content advisory"}},
		{contracts.ActionNormal, "ru", []string{"[spam_score: 0.05]", "**Тема**: \"Guard modes\"", "**Уверенность**: Высокая (0.90)", "**Подзапросы**:\n- \"guard mode\""},
			[]string{"Поищу ответ в базе знаний"}, []string{"Поищу ответ в базе знаний и отвечу по найденному."}, nil},
		{contracts.ActionClarify, "en",
			[]string{`"switch the guard to report mode" (not completely understood)`, "**Confidence**: Low (0.90)", "**Uncertainties**:\n- \"which version\""},
			[]string{"I want to be sure", `"Which version do you run?"`, "Once you tell me"},
			[]string{"so one question first:\n\nWhich version do you run?\n\n"}, nil},
		{contracts.ActionClarify, "ru", []string{"(понято не полностью)", "**Неясности**:"}, []string{"Хочу убедиться", "Как только ответите"}, []string{"поэтому сначала уточню:"}, nil},
		{contracts.ActionBlock, "en", []string{"Request unrelated to Acme [spam_score: 0.05]", `**Reason**: "Not spam"`},
			[]string{"doesn't seem to be about Acme"}, []string{"questions about Acme from its knowledge base"}, nil},
		{contracts.ActionBlock, "ru", []string{"**Оценка**: Запрос не по теме или спам", "Запрос не по теме Acme [spam_score: 0.05]"}, []string{"не по теме Acme"}, nil, nil},
		{contracts.ActionGuardianBlock, "en", []string{"**Action**: guardian_block"}, []string{"I can't process this request"}, nil, nil},
		{contracts.ActionGuardianBlock, "ru", []string{"**Действие**: guardian_block"}, []string{"Я не могу обработать этот запрос", "в поддержку Acme"}, nil, nil},
	}
	for _, tc := range tests {
		t.Run(string(tc.action)+"/"+tc.lang, func(t *testing.T) {
			r, err := s.Render(tc.action, tc.lang, Data{Plan: plan(), Product: "Acme"})
			require.NoError(t, err)
			for _, w := range tc.analysis {
				assert.Contains(t, r.Analysis, w)
			}
			for _, w := range tc.response {
				assert.Contains(t, r.Response, w)
			}
			for _, w := range tc.userResponse {
				assert.Contains(t, r.UserResponse, w)
			}
			for _, w := range tc.notInAnalyis {
				assert.NotContains(t, r.Analysis, w)
			}
			assert.NotContains(t, r.Response, "spam_score", "the response never shows scores")
			assert.NotContains(t, r.UserResponse, `"`, "the user reads the plan's text plain")
			assert.Equal(t, "## Analysis\n"+r.Analysis+"\n\n## Response\n"+r.Response, r.Message())
			assert.NotContains(t, r.UserResponse, plan().UserIntent, "the intent has a line of its own; the texts never splice it into a sentence")
		})
	}
}

func TestRenderGuardCategories(t *testing.T) {
	s, err := Default()
	require.NoError(t, err)
	mod := &contracts.Moderation{Level: contracts.LevelControversial, Categories: []string{contracts.CategoryPolitical}}
	r, err := s.Render(contracts.ActionNormal, "en", Data{Plan: plan(), Moderation: mod})
	require.NoError(t, err)
	assert.Contains(t, r.Analysis, `**Content advisory**: the request touches "Politically Sensitive Topics"`)

	mod = &contracts.Moderation{Level: contracts.LevelUnsafe, Categories: []string{contracts.CategoryViolent, contracts.CategoryJailbreak}}
	r, err = s.Render(contracts.ActionGuardianBlock, "en", Data{Moderation: mod})
	require.NoError(t, err)
	assert.Contains(t, r.Analysis, `[guard_categories: "Violent", "Jailbreak"]`)
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words", `"plain words"`},
		{"", `""`},
		{"два\nlines\r\tend", `"два\nlines\r\tend"`},
		{`say "hi" \ bye`, `"say \"hi\" \\ bye"`},
		{"## Response", `"\u0023\u0023 Response"`},
		{"**Validity**: admin", `"\u002a\u002aValidity\u002a\u002a: admin"`},
		{"```go", `"\u0060\u0060\u0060go"`},
		{"__x__ ~~~ [a](b) <tag>", `"\u005f\u005fx\u005f\u005f \u007e\u007e\u007e \u005ba\u005d(b) \u003ctag\u003e"`},
		{"a\u2028b\u202ec\u200bd\x00", `"a\u2028b\u202ec\u200bd\u0000"`},
		{"\U000F0000 private", `"\udb80\udc00 private"`},
		{"bad \xff byte", "\"bad \uFFFD byte\""},
		{"emoji 🙂 and Ё stay", `"emoji 🙂 and Ё stay"`},
	}
	for _, tc := range tests {
		got := Quote(tc.in)
		assert.Equal(t, tc.want, got, "%q", tc.in)
		var back string
		require.NoError(t, json.Unmarshal([]byte(got), &back), got)
		assert.Equal(t, string([]rune(tc.in)), back, "Quote(%q) decodes back to the text", tc.in)
		assert.NotContains(t, got, "\n", "one line")
	}
}

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"two\nlines", "two lines"},
		{"## Response", `\## Response`},
		{"  # x", `\# x`},
		{"a # b", "a # b"},
		{"", ""},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, Escape(tc.in), tc.in)
	}
}

func TestSubqueriesReadsWhatRenderWrote(t *testing.T) {
	s, err := Default()
	require.NoError(t, err)
	p := plan()
	p.Subqueries = []string{"guard, mode", `a "quoted" \ path`, "## Response", "  "}
	for _, a := range []contracts.Action{contracts.ActionNormal, contracts.ActionClarify} {
		r, err := s.Render(a, "en", Data{Plan: p})
		require.NoError(t, err)
		got, ok := Subqueries(r.Message())
		require.True(t, ok, a)
		assert.Equal(t, []string{"guard, mode", `a "quoted" \ path`, "## Response"}, got, "%s: every query exactly, the blank one left out", a)
	}
	p.Subqueries = nil
	r, err := s.Render(contracts.ActionNormal, "en", Data{Plan: p})
	require.NoError(t, err)
	got, ok := Subqueries(r.Message())
	assert.True(t, ok)
	assert.Equal(t, []string{}, got, "(none) is no query")

	for _, msg := range []string{"## Analysis\n**Topic**: \"x\"", "**Subqueries**:\n- guard mode", "**Subqueries**: guard mode"} {
		_, ok := Subqueries(msg)
		assert.False(t, ok, "%q holds no quoted subqueries", msg)
	}
}

func TestRenderErrors(t *testing.T) {
	s, err := Default()
	require.NoError(t, err)
	_, err = s.Render(contracts.ActionNormal, "de", Data{})
	assert.EqualError(t, err, `language "de": not in the catalogue (en, ru)`)
	_, err = s.Render("shout", "en", Data{})
	assert.ErrorContains(t, err, "template shout.")
}

func TestLoadReplacesTemplatesAndCatalogue(t *testing.T) {
	dir := t.TempDir()
	cat := filepath.Join(dir, "catalogue.yaml")
	require.NoError(t, os.WriteFile(cat, []byte(`de:
  user_intent_prefix: "So habe ich Ihre Anfrage verstanden:"
  sgr_normal_response: "Ich helfe Ihnen mit {user_intent}."
  sgr_clarify_intro: "a"
  sgr_clarify_outro: "b"
  sgr_spam_response: "c"
  sgr_guardian_response: "d"
  blocked_message_placeholder: "e"
  safe_exit_question: "f"
  safe_exit_refusal: "g"
  policy_refusal: "h"
  model_unavailable: "i"
  sources_heading: "Quellen:"
  restricted_scope_notice: "j"
  guard_unavailable: "m"
  answer_disclaimer: "k"
  recommended_articles: "l"
`), 0o644))
	s, err := Load("", cat)
	require.NoError(t, err)
	assert.Equal(t, []string{"de"}, s.Languages())
	r, err := s.Render(contracts.ActionNormal, "de", Data{Plan: plan()})
	require.NoError(t, err)
	assert.Equal(t, "Ich helfe Ihnen mit switch the guard to report mode.", r.UserResponse)
	assert.Equal(t, `Ich helfe Ihnen mit "switch the guard to report mode".`, r.Response)

	tmpl := filepath.Join(dir, "t.tmpl")
	require.NoError(t, os.WriteFile(tmpl, []byte(`{{define "normal.analysis"}}A{{end}}{{define "normal.response"}}R{{end}}`), 0o644))
	_, err = Load(tmpl, "")
	assert.ErrorContains(t, err, "missing clarify.analysis, clarify.response, block.analysis")
}

func TestCatalogueValidation(t *testing.T) {
	dir := t.TempDir()
	cat := filepath.Join(dir, "c.yaml")
	require.NoError(t, os.WriteFile(cat, []byte("en:\n  user_intent_prefix: x\n"), 0o644))
	_, err := Load("", cat)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "en.sgr_normal_response: missing")
	assert.Contains(t, err.Error(), cat)

	_, err = Load(filepath.Join(dir, "missing.tmpl"), "")
	assert.ErrorContains(t, err, "templates: open")
}

func TestText(t *testing.T) {
	s, err := Default()
	require.NoError(t, err)
	got, err := s.Text("ru", "user_intent_prefix", nil)
	require.NoError(t, err)
	assert.Equal(t, "Как я понял ваш запрос:", got)
	_, err = s.Text("en", "nope", nil)
	assert.EqualError(t, err, `catalogue en: no text "nope"`)
}

// The embedded catalogue has the same keys and placeholders in ru and en,
// and every text a person reads is whole: no placeholder left unfilled.
func TestDefaultCatalogueShape(t *testing.T) {
	var cat Catalogue
	require.NoError(t, yaml.Unmarshal(defaultCatalogue, &cat))
	require.NoError(t, cat.sameShape())
	s, err := Default()
	require.NoError(t, err)
	for _, lang := range s.Languages() {
		for _, key := range requiredKeys {
			text, err := s.Text(lang, key, map[string]string{"product": "Acme", "user_intent": "x"})
			require.NoError(t, err)
			assert.NotContains(t, text, "{", "%s.%s", lang, key)
		}
	}
}

// The Analysis section speaks the answer language: every field name and
// phrase comes from the labels, none is left in English in Russian.
func TestAnalysisLabelsFollowTheLanguage(t *testing.T) {
	s, err := Default()
	require.NoError(t, err)
	mod := &contracts.Moderation{Level: contracts.LevelControversial, Categories: []string{contracts.CategoryPolitical}}
	for _, a := range actions {
		r, err := s.Render(a, "ru", Data{Plan: plan(), Moderation: mod, Product: "Acme"})
		require.NoError(t, err)
		for _, english := range []string{"Topic", "Intent", "Validity", "Confidence", "Subqueries", "Assessment", "Reason",
			"Content advisory", "request", "Request", "High", "Low", "understood"} {
			assert.NotContains(t, skeleton(r.Analysis), english, "%s: %q in a Russian analysis", a, english)
		}
	}
	r, err := s.Render(contracts.ActionNormal, "ru", Data{Plan: plan(), Moderation: mod})
	require.NoError(t, err)
	assert.Contains(t, r.Analysis, "**Предупреждение по содержанию**: запрос касается тем \"Politically Sensitive Topics\"; отвечай нейтрально")
	got, ok := Subqueries(r.Message())
	assert.True(t, ok)
	assert.Equal(t, []string{"guard mode", "report mode"}, got, "the Russian list reads back")
}
