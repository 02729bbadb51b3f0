package decisions

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/tables"
)

// TestInputsRefuseValuesOutsideTheirDomain: the plan decoder clamps both
// scores to [0,1], so a score outside it, NaN or an infinity is refused by
// name and limit rather than routed.
func TestInputsRefuseValuesOutsideTheirDomain(t *testing.T) {
	s := standard(t, DefaultConfig())
	tests := []struct {
		table, input string
		value        any
		want         string
	}{
		{"DT-002", "spam_score", -5.0, "spam_score: -5 is outside its range [0..1]"},
		{"DT-002", "spam_score", "-5", "spam_score: -5 is outside its range [0..1]"},
		{"DT-002", "spam_score", 1.0000001, "spam_score: 1.0000001 is outside its range [0..1]"},
		{"DT-002", "spam_score", "Inf", "spam_score: Inf is not a finite number"},
		{"DT-002", "spam_score", "-inf", "spam_score: -inf is not a finite number"},
		{"DT-002", "spam_score", "1e400", "spam_score: 1e400 is not a finite number"},
		{"DT-002", "spam_score", math.Inf(1), "spam_score: +Inf is not a finite number"},
		{"DT-002", "spam_score", "NaN", "spam_score: NaN is not a finite number"},
		{"DT-002", "spam_score", math.NaN(), "spam_score: NaN is not a finite number"},
		{"DT-002", "intent_confidence", 2, "intent_confidence: 2 is outside its range [0..1]"},
		{"DT-003", "sgr_call_count", -1, "sgr_call_count: -1 is outside its range >= 0"},
		{"DT-005", "retry_count", "-1", "retry_count: -1 is outside its range >= 0"},
		{"DT-005", "evidence_items", math.Inf(1), "evidence_items: +Inf is not a finite number"},
	}
	valid := map[string]map[string]any{
		"DT-002": {"spam_score": 0.1, "intent_confidence": 0.9, "guardian_level": "Safe"},
		"DT-003": {"turn_state": "new_user_msg", "sgr_call_count": 0},
		"DT-005": {"policy_ok": true, "evidence_ok": true, "evidence_items": 1, "retry_useful": true, "contract_ok": true, "track": "FAST", "retry_count": 0},
	}
	for _, tc := range tests {
		t.Run(tc.table+" "+tc.input, func(t *testing.T) {
			dt := get(t, s, tc.table)
			in := map[string]any{}
			for k, v := range valid[tc.table] {
				in[k] = v
			}
			_, err := dt.Evaluate(in)
			require.NoError(t, err, "the inputs around the bad one are valid")
			in[tc.input] = tc.value
			_, err = dt.Evaluate(in)
			assert.EqualError(t, err, tc.table+": input "+tc.want)
			if text, ok := tc.value.(string); ok {
				_, err = tables.ParseInputs(dt, []string{tc.input + "=" + text})
				assert.EqualError(t, err, tc.want, "the command line is refused the same way")
			}
		})
	}
}

func TestDomainBoundsAreAccepted(t *testing.T) {
	dt := get(t, standard(t, DefaultConfig()), "DT-002")
	for _, tc := range []struct {
		spam, conf float64
		action     string
	}{{0, 0, "clarify"}, {0, 1, "normal"}, {1, 1, "block"}, {math.Copysign(0, -1), 0.9, "normal"}} {
		res, err := dt.Evaluate(map[string]any{"spam_score": tc.spam, "intent_confidence": tc.conf, "guardian_level": "Safe"})
		require.NoError(t, err, "%g %g", tc.spam, tc.conf)
		assert.Equal(t, tc.action, res.Get("action"))
	}
}

// TestStandardNumberInputsDeclareARange keeps every number input of the
// shipped tables bounded, so that an out-of-domain value is refused.
func TestStandardNumberInputsDeclareARange(t *testing.T) {
	for _, tbl := range standard(t, DefaultConfig()).All() {
		for _, c := range tbl.Inputs {
			if c.Type == tables.TypeNumber {
				assert.NotEmpty(t, c.Range, "%s input %s", tbl.ID, c.Name)
			}
		}
	}
}

func TestTablesPrintTheirDomains(t *testing.T) {
	s := standard(t, DefaultConfig())
	md := get(t, s, "DT-002").Markdown()
	assert.Contains(t, md, "Inputs:\n\n- `spam_score`: a number [0..1]\n- `intent_confidence`: a number [0..1]\n"+
		"- `guardian_level`: one of \"Safe\", \"Controversial\", \"Unsafe\", \"N/A\", \"Unknown\"\n")
	assert.Contains(t, get(t, s, "DT-005").Markdown(), "- `policy_ok`: true or false\n")
	assert.Contains(t, get(t, s, "DT-005").Markdown(), "- `retry_count`: a number >= 0\n")
	assert.Contains(t, get(t, s, "DT-006").Markdown(), "- `request_type`: any string\n")

	b, err := json.Marshal(get(t, s, "DT-002"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `{"name":"spam_score","type":"number","range":"[0..1]"}`)
	var back tables.Table
	require.NoError(t, json.Unmarshal(b, &back))
	again, err := tables.New(back)
	require.NoError(t, err)
	_, err = again.Evaluate(map[string]any{"spam_score": -5, "intent_confidence": 0.9, "guardian_level": "Safe"})
	assert.ErrorContains(t, err, "spam_score: -5 is outside its range [0..1]", "a table read back from JSON keeps its domain")
}

func TestParseInputsRefusesAnInputGivenTwice(t *testing.T) {
	dt := get(t, standard(t, DefaultConfig()), "DT-002")
	_, err := tables.ParseInputs(dt, []string{"spam_score=0.1", "spam_score=0.9"})
	assert.EqualError(t, err, "spam_score: given twice")
}
