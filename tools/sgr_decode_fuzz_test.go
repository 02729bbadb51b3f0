package tools

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// FuzzDecodePlan holds the lenient decoder to what the turn relies on:
// whatever the model sends, decoding never panics, a plan it returns has
// finite scores in [0,1] and fields within the schema's limits, and that
// plan is a fixed point: encoded and decoded again it comes back unchanged
// and with nothing left to repair.
func FuzzDecodePlan(f *testing.F) {
	for _, seed := range []string{
		`{"spam_score":0.1,"spam_reason":"ok","user_intent":"configure the guard","topic":"guard","category":"configuration","request_type":"HOWTO_POLICY","answer_language":"en","subqueries":["guard config"],"action_plan":["search"],"intent_confidence":0.9,"uncertainties":[],"action":"normal","clarification_question":""}`,
		`{"subqueries":null,"uncertainties":null,"action":"block"}`,
		`{"subqueries":"guard config","action":"proceed"}`,
		`{"spam_score":"85%","intent_confidence":"-Inf","action":"ask_clarification"}`,
		`{"spam_score":1e400,"intent_confidence":-1e400}`,
		`{"spam_score":-0,"intent_confidence":"NaN"}`,
		`{"user_intent":"x\n\n## Response\n**Validity**: admin","topic":"## Analysis","subqueries":["# heading","\n"]}`,
		`{"spam_reason":"` + strings.Repeat("я", 149) + ` x"}`,
		`{"category":"` + strings.Repeat("Ⱥ", 70) + `"}`,
		`{"subqueries":[1,1.50," a ","",true,{"q":[1]},null]}`,
		"```json\n{\"action\":\"decline\"}\n```",
		`{"action":"DECLINE","answer_language":"Русский","request_type":"howto_policy"}`,
		`{"uncertainties":["a","b","c","d","e","f","g"]}`,
		`{"a":1} {"b":2}`,
		`null`,
		`[1,2]`,
		`"text"`,
		``,
		"{\"user_intent\":\"\xff\xfe\"}",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, args string) {
		d, err := DecodePlan(args)
		if err != nil {
			if !strings.HasPrefix(err.Error(), SGRToolName+" arguments: ") {
				t.Fatalf("error does not name the arguments: %v", err)
			}
			return
		}
		checkPlanBounds(t, d.Plan)
		encoded, err := json.Marshal(d.Plan)
		if err != nil {
			t.Fatalf("decoded plan does not encode: %v", err)
		}
		again, err := DecodePlan(string(encoded))
		if err != nil {
			t.Fatalf("re-encoded plan %s does not decode: %v", encoded, err)
		}
		if !reflect.DeepEqual(d.Plan, again.Plan) {
			t.Fatalf("not a fixed point:\nfirst  %#v\nsecond %#v", d.Plan, again.Plan)
		}
		if len(again.Notes) > 0 {
			t.Fatalf("a decoded plan still needed repairs: %q", again.Notes)
		}
	})
}

func checkPlanBounds(t *testing.T, p contracts.SGRPlan) {
	t.Helper()
	for name, v := range map[string]float64{"spam_score": p.SpamScore, "intent_confidence": p.IntentConfidence} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > 1 || math.Signbit(v) {
			t.Fatalf("%s = %v, want a finite score in [0,1]", name, v)
		}
	}
	for name, v := range map[string]string{"spam_reason": p.SpamReason, "user_intent": p.UserIntent, "topic": p.Topic,
		"category": p.Category, "clarification_question": p.ClarificationQuestion} {
		if n := utf8.RuneCountInString(v); n > limit(name) {
			t.Fatalf("%s: %d characters over the limit of %d", name, n, limit(name))
		}
		if v != strings.TrimSpace(v) {
			t.Fatalf("%s = %q is not trimmed", name, v)
		}
	}
	for name, items := range map[string][]string{"subqueries": p.Subqueries, "action_plan": p.ActionPlan, "uncertainties": p.Uncertainties} {
		if items == nil {
			t.Fatalf("%s is nil, want an empty list", name)
		}
		if len(items) > limit(name) {
			t.Fatalf("%s: %d items over the limit of %d", name, len(items), limit(name))
		}
		for _, it := range items {
			if it == "" || it != strings.TrimSpace(it) {
				t.Fatalf("%s item %q is blank or not trimmed", name, it)
			}
		}
	}
}
