package tools

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
)

func TestDecodePlan(t *testing.T) {
	tests := []struct {
		name  string
		args  string
		check func(t *testing.T, p contracts.SGRPlan)
		notes []string // substrings, one per expected note
	}{
		{"well formed", `{"spam_score":0.1,"spam_reason":"ok","user_intent":"configure the guard","subqueries":["guard config"],"intent_confidence":0.9,"action":"normal","request_type":"HOWTO_POLICY","answer_language":"en"}`,
			func(t *testing.T, p contracts.SGRPlan) {
				assert.Equal(t, 0.1, p.SpamScore)
				assert.Equal(t, []string{"guard config"}, p.Subqueries)
				assert.Equal(t, contracts.ActionNormal, p.Action)
				assert.Equal(t, contracts.RequestHowtoPolicy, p.RequestType)
			}, nil},
		{"null list is empty", `{"subqueries":null,"uncertainties":null,"action":"block"}`,
			func(t *testing.T, p contracts.SGRPlan) {
				assert.Equal(t, []string{}, p.Subqueries)
				assert.Equal(t, []string{}, p.Uncertainties)
			}, nil},
		{"string where list expected", `{"subqueries":"guard config","action":"normal"}`,
			func(t *testing.T, p contracts.SGRPlan) { assert.Equal(t, []string{"guard config"}, p.Subqueries) },
			[]string{"subqueries: a single value"}},
		{"empty string list", `{"subqueries":""}`,
			func(t *testing.T, p contracts.SGRPlan) { assert.Empty(t, p.Subqueries) }, nil},
		{"scores clamped and reported", `{"spam_score":1.7,"intent_confidence":-0.2}`,
			func(t *testing.T, p contracts.SGRPlan) {
				assert.Equal(t, 1.0, p.SpamScore)
				assert.Equal(t, 0.0, p.IntentConfidence)
			}, []string{"spam_score: 1.7 out of range", "intent_confidence: -0.2 out of range"}},
		{"score as string and percent", `{"spam_score":"0.25","intent_confidence":"85%"}`,
			func(t *testing.T, p contracts.SGRPlan) {
				assert.Equal(t, 0.25, p.SpamScore)
				assert.InDelta(t, 0.85, p.IntentConfidence, 1e-9)
			}, nil},
		{"score not a number", `{"spam_score":"high"}`,
			func(t *testing.T, p contracts.SGRPlan) { assert.Equal(t, 0.0, p.SpamScore) },
			[]string{`spam_score: high is not a number`}},
		{"NaN and Inf are not numbers", `{"spam_score":"NaN","intent_confidence":"-Inf"}`,
			func(t *testing.T, p contracts.SGRPlan) {
				assert.Equal(t, 0.0, p.SpamScore)
				assert.Equal(t, 0.0, p.IntentConfidence)
			}, []string{"spam_score: NaN is not a number", "intent_confidence: -Inf is not a number"}},
		{"origin action names", `{"action":"ask_clarification"}`,
			func(t *testing.T, p contracts.SGRPlan) { assert.Equal(t, contracts.ActionClarify, p.Action) },
			[]string{`action: "ask_clarification" read as "clarify"`}},
		{"list items stringified, blanks dropped", `{"subqueries":[1, " a ", "", true]}`,
			func(t *testing.T, p contracts.SGRPlan) { assert.Equal(t, []string{"1", "a", "true"}, p.Subqueries) }, nil},
		{"too many items cut and reported", `{"uncertainties":["a","b","c","d","e","f","g"]}`,
			func(t *testing.T, p contracts.SGRPlan) { assert.Len(t, p.Uncertainties, 5) },
			[]string{`uncertainties: 7 items over the limit of 5, dropped: ["f" "g"]`}},
		{"too long text cut and reported", `{"spam_reason":"` + strings.Repeat("я", 160) + `"}`,
			func(t *testing.T, p contracts.SGRPlan) { assert.Equal(t, 150, len([]rune(p.SpamReason))) },
			[]string{"spam_reason: 160 characters over the limit of 150"}},
		{"unknown field reported", `{"action":"block","mood":"happy"}`,
			func(t *testing.T, p contracts.SGRPlan) { assert.Equal(t, contracts.ActionBlock, p.Action) },
			[]string{`ignored unknown field "mood"`}},
		{"code fence stripped", "```json\n{\"action\":\"block\"}\n```",
			func(t *testing.T, p contracts.SGRPlan) { assert.Equal(t, contracts.ActionBlock, p.Action) }, nil},
		{"a number beyond float64 is a bad score, not a broken object", `{"spam_score":1e400,"intent_confidence":-1e400,"action":"block"}`,
			func(t *testing.T, p contracts.SGRPlan) {
				assert.Equal(t, 0.0, p.SpamScore)
				assert.Equal(t, contracts.ActionBlock, p.Action)
			}, []string{"spam_score: 1e400 is not a number", "intent_confidence: -1e400 is not a number"}},
		{"negative zero is zero", `{"spam_score":-0}`,
			func(t *testing.T, p contracts.SGRPlan) { assert.False(t, math.Signbit(p.SpamScore)) }, nil},
		{"numbers in lists keep the model's text", `{"subqueries":[1.50, 2e3]}`,
			func(t *testing.T, p contracts.SGRPlan) { assert.Equal(t, []string{"1.50", "2e3"}, p.Subqueries) }, nil},
		{"a cut ending in a space is trimmed", `{"spam_reason":"` + strings.Repeat("я", 149) + ` xyz"}`,
			func(t *testing.T, p contracts.SGRPlan) { assert.Equal(t, strings.Repeat("я", 149), p.SpamReason) },
			[]string{"spam_reason: 153 characters over the limit of 150"}},
		{"language names and case", `{"answer_language":"Russian","request_type":"howto_policy","action":"NORMAL"}`,
			func(t *testing.T, p contracts.SGRPlan) {
				assert.Equal(t, "ru", p.AnswerLanguage)
				assert.Equal(t, contracts.RequestHowtoPolicy, p.RequestType)
				assert.Equal(t, contracts.ActionNormal, p.Action)
			}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := DecodePlan(tc.args)
			require.NoError(t, err)
			tc.check(t, d.Plan)
			require.Len(t, d.Notes, len(tc.notes), "notes: %q", d.Notes)
			for i, want := range tc.notes {
				assert.Contains(t, d.Notes[i], want)
			}
		})
	}
}

func TestDecodePlanRejectsNonObjects(t *testing.T) {
	for _, args := range []string{``, `not json`, `[1,2]`, `{"action":`, `null`, `"text"`, `{"action":"block"} {"action":"normal"}`, `{"a":1}]`} {
		_, err := DecodePlan(args)
		assert.ErrorContains(t, err, "analyse_user_request arguments: not a JSON object", args)
	}
}

func TestValidatePlan(t *testing.T) {
	valid := contracts.SGRPlan{Action: contracts.ActionNormal, UserIntent: "x", Subqueries: []string{"q"}, AnswerLanguage: "en", RequestType: contracts.RequestKnowledgeQA}
	tests := []struct {
		name   string
		modify func(p *contracts.SGRPlan)
		errs   []string
	}{
		{"valid normal", func(p *contracts.SGRPlan) {}, nil},
		{"valid casual normal without queries", func(p *contracts.SGRPlan) { p.Subqueries = nil; p.RequestType = contracts.RequestCasual }, nil},
		{"valid clarify with uncertainties", func(p *contracts.SGRPlan) {
			p.Action = contracts.ActionClarify
			p.Uncertainties = []string{"which node?"}
		}, nil},
		{"valid block without queries", func(p *contracts.SGRPlan) { p.Action = contracts.ActionBlock; p.Subqueries = nil }, nil},
		{"unknown action", func(p *contracts.SGRPlan) { p.Action = "maybe" }, []string{`action: "maybe" is not one of`}},
		{"empty intent", func(p *contracts.SGRPlan) { p.UserIntent = "" }, []string{"user_intent: must not be empty"}},
		{"normal without queries", func(p *contracts.SGRPlan) { p.Subqueries = nil }, []string{"subqueries: action normal needs"}},
		{"clarify without question", func(p *contracts.SGRPlan) { p.Action = contracts.ActionClarify }, []string{"clarification_question: action clarify needs"}},
		{"bad request type", func(p *contracts.SGRPlan) { p.RequestType = "GOSSIP" }, []string{`request_type: "GOSSIP"`}},
		{"bad language", func(p *contracts.SGRPlan) { p.AnswerLanguage = "eng" }, []string{`answer_language: "eng"`}},
		{"several problems at once", func(p *contracts.SGRPlan) { p.UserIntent = ""; p.Action = "x" }, []string{"action:", "user_intent:"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := valid
			tc.modify(&p)
			err := ValidatePlan(p)
			if tc.errs == nil {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			for _, want := range tc.errs {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}
