package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecideRefusesValuesOutsideTheDomain: the plan decoder clamps scores to
// [0,1], so decide refuses what no plan can carry, naming the input and the
// limit, instead of routing it.
func TestDecideRefusesValuesOutsideTheDomain(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"negative score", []string{"spam_score=-5", "intent_confidence=0.9", "guardian_level=Safe"}, "spam_score: -5 is outside its range [0..1]"},
		{"score above one", []string{"spam_score=0.2", "intent_confidence=1.5", "guardian_level=Safe"}, "intent_confidence: 1.5 is outside its range [0..1]"},
		{"infinity", []string{"spam_score=Inf", "intent_confidence=0.9", "guardian_level=Safe"}, "spam_score: Inf is not a finite number"},
		{"minus infinity", []string{"spam_score=0.1", "intent_confidence=-Infinity", "guardian_level=Safe"}, "intent_confidence: -Infinity is not a finite number"},
		{"NaN", []string{"spam_score=NaN", "intent_confidence=0.9", "guardian_level=Safe"}, "spam_score: NaN is not a finite number"},
		{"not a number, as before", []string{"spam_score=abc", "intent_confidence=0.9", "guardian_level=Safe"}, "spam_score: abc is not a number"},
		{"an input given twice", []string{"spam_score=0.1", "spam_score=0.9", "intent_confidence=0.9", "guardian_level=Safe"}, "spam_score: given twice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := run(t, append([]string{"decide", "DT-002"}, tc.args...)...)
			assert.EqualError(t, err, tc.want)
			assert.Empty(t, out, "nothing is decided")
		})
	}
	_, _, err := run(t, "decide", "DT-003", "turn_state=new_user_msg", "sgr_call_count=-1")
	assert.EqualError(t, err, "sgr_call_count: -1 is outside its range >= 0")
}

func TestDecideAcceptsTheDomainBounds(t *testing.T) {
	out, _, err := run(t, "decide", "DT-002", "spam_score=1", "intent_confidence=0", "guardian_level=Safe")
	require.NoError(t, err)
	assert.Contains(t, out, "= block")
	out, _, err = run(t, "decide", "DT-002", "spam_score=0", "intent_confidence=1", "guardian_level=Safe")
	require.NoError(t, err)
	assert.Contains(t, out, "= normal")
}

// TestTablesPrintTheDomainDecideChecks: the limit decide refuses by is the
// one the table prints, in Markdown and in JSON.
func TestTablesPrintTheDomainDecideChecks(t *testing.T) {
	out, _, err := run(t, "tables")
	require.NoError(t, err)
	assert.Contains(t, out, "- `spam_score`: a number [0..1]\n")
	assert.Contains(t, out, "- `sgr_call_count`: a number >= 0\n")
	out, _, err = run(t, "tables", "--json")
	require.NoError(t, err)
	assert.Contains(t, out, `"name": "spam_score",`+"\n"+`        "type": "number",`+"\n"+`        "range": "[0..1]"`)
}
