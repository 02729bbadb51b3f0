package decisions

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/tables"
)

func standard(t *testing.T, cfg Config) *tables.Set {
	t.Helper()
	s, err := Standard(cfg)
	require.NoError(t, err)
	return s
}

func get(t *testing.T, s *tables.Set, id string) *tables.Table {
	t.Helper()
	tbl, err := s.Get(id)
	require.NoError(t, err)
	return tbl
}

// TestTableExamples runs every example every standard table carries.
func TestTableExamples(t *testing.T) {
	for _, cfg := range []Config{DefaultConfig(), {SpamThreshold: 0.5, ConfidenceThreshold: 0.4, MaxRetries: 3}} {
		for _, tbl := range standard(t, cfg).All() {
			require.NotEmpty(t, tbl.Examples, "%s carries no examples", tbl.ID)
			covered := map[int]bool{}
			for _, e := range tbl.Examples {
				res, err := tbl.Evaluate(e.Inputs)
				require.NoError(t, err, "%s %v", tbl.ID, e.Inputs)
				assert.Equal(t, e.Rule, res.Rule, "%s %v", tbl.ID, e.Inputs)
				covered[e.Rule] = true
			}
			for i := range tbl.Rules {
				assert.True(t, covered[i+1], "%s row %d has no example", tbl.ID, i+1)
			}
		}
	}
}

func TestTableLint(t *testing.T) {
	for _, tbl := range standard(t, DefaultConfig()).All() {
		assert.Empty(t, tables.Lint(tbl), tbl.ID)
	}
}

func TestSeedRowsDT001(t *testing.T) {
	dt := get(t, standard(t, DefaultConfig()), "DT-001")
	tests := []struct{ level, mode, decision string }{
		{"Unsafe", "enforce", "Block"},
		{"Unsafe", "report", "Continue"},
		{"Controversial", "enforce", "Continue"},
		{"Controversial", "report", "Continue"},
		{"Safe", "enforce", "Continue"},
		{"Safe", "report", "Continue"},
		{"Unknown", "enforce", "Block"},
		{"Unknown", "report", "Continue"},
	}
	for _, tc := range tests {
		res, err := dt.Evaluate(map[string]any{"guardian_level": tc.level, "guard_mode": tc.mode, "policy": "ALLOW"})
		require.NoError(t, err)
		assert.Equal(t, tc.decision, res.Get("decision"), "%s/%s", tc.level, tc.mode)
		res, err = dt.Evaluate(map[string]any{"guardian_level": tc.level, "guard_mode": tc.mode, "policy": "DENY"})
		require.NoError(t, err)
		assert.Equal(t, "Block", res.Get("decision"), "a policy denial blocks whatever the level: %s/%s", tc.level, tc.mode)
	}
}

func TestSeedRowsDT002(t *testing.T) {
	dt := get(t, standard(t, DefaultConfig()), "DT-002")
	tests := []struct {
		name         string
		spam, conf   float64
		level        string
		action, flow string
	}{
		{"normal", 0.1, 0.9, "Safe", "normal", "Continue"},
		{"normal controversial", 0.1, 0.9, "Controversial", "normal", "Continue"},
		{"normal without guard", 0.1, 0.9, "N/A", "normal", "Continue"},
		{"clarify", 0.1, 0.3, "Safe", "clarify", "Wait"},
		{"block", 0.9, 0.9, "Safe", "block", "Stop"},
		{"block whatever confidence", 0.9, 0.1, "Controversial", "block", "Stop"},
		{"guardian block", 0.1, 0.9, "Unsafe", "guardian_block", "Stop"},
		{"guardian block beats spam", 0.95, 0.1, "Unsafe", "guardian_block", "Stop"},
		{"spam boundary 0.7 blocks", 0.7, 0.9, "Safe", "block", "Stop"},
		{"spam just under boundary", 0.6999, 0.9, "Safe", "normal", "Continue"},
		{"confidence boundary 0.6 is normal", 0.2, 0.6, "Safe", "normal", "Continue"},
		{"confidence 0.59 clarifies", 0.2, 0.59, "Safe", "clarify", "Wait"},
		{"unknown level routes like N/A", 0.2, 0.9, "Unknown", "normal", "Continue"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := dt.Evaluate(map[string]any{"spam_score": tc.spam, "intent_confidence": tc.conf, "guardian_level": tc.level})
			require.NoError(t, err)
			assert.Equal(t, tc.action, res.Get("action"))
			assert.Equal(t, tc.action, res.Get("template"), "template matches action")
			assert.Equal(t, tc.flow, res.Get("flow"))
		})
	}
}

func TestSeedRowsDT003(t *testing.T) {
	dt := get(t, standard(t, DefaultConfig()), "DT-003")
	tests := []struct {
		state     string
		count     int
		available string
	}{
		{"new_user_msg", 0, "true"},
		{"new_user_msg", 1, "true"},
		{"after_sgr", 1, "false"},
		{"mid_turn", 1, "false"},
		{"next_user_msg", 0, "true"},
	}
	for _, tc := range tests {
		res, err := dt.Evaluate(map[string]any{"turn_state": tc.state, "sgr_call_count": tc.count})
		require.NoError(t, err)
		assert.Equal(t, tc.available, res.Get("sgr_tool_available"), "%s/%d", tc.state, tc.count)
	}
}

func TestSeedRowsDT004(t *testing.T) {
	dt := get(t, standard(t, DefaultConfig()), "DT-004")
	tests := []struct{ channel, analysis, response, trace, data string }{
		{"context", "true", "true", "false", "false"},
		{"ui", "false", "true", "false", "false"},
		{"metadata", "true", "true", "true", "true"},
	}
	for _, tc := range tests {
		res, err := dt.Evaluate(map[string]any{"output_channel": tc.channel})
		require.NoError(t, err)
		assert.Equal(t, []string{tc.analysis, tc.response, tc.trace, tc.data},
			[]string{res.Get("analysis_section"), res.Get("response_section"), res.Get("tool_trace"), res.Get("structured_data")}, tc.channel)
	}
}

func TestVerdictFlow(t *testing.T) {
	dt := get(t, standard(t, DefaultConfig()), "DT-005")
	tests := []struct {
		name                       string
		policy, evidence, contract bool
		items                      int
		useful                     bool
		track                      string
		retries                    int
		verdict, risk, next        string
		action                     string
	}{
		{"policy violation fails at once, with no required action", false, true, true, 2, true, "QUALITY", 0, "FAIL", "high", "safe_exit", "-"},
		{"no evidence at all is retried on fast too", true, false, true, 0, true, "FAST", 1, "RETRY", "med", "retry_bump", "-"},
		{"no evidence on fast after max retry fails with a question", true, false, true, 0, true, "FAST", 2, "FAIL", "med", "safe_exit", "ASK_MINIMAL_QUESTION"},
		{"no evidence on fast is not retried when a retry found nothing new", true, false, true, 0, false, "FAST", 1, "FAIL", "med", "safe_exit", "ASK_MINIMAL_QUESTION"},
		{"no evidence on quality after max retry fails", true, false, true, 0, true, "QUALITY", 2, "FAIL", "med", "safe_exit", "ASK_MINIMAL_QUESTION"},
		{"evidence retry on quality", true, false, true, 1, true, "QUALITY", 0, "RETRY", "med", "retry_bump", "-"},
		{"no evidence retry that cannot find anything new", true, false, true, 1, false, "QUALITY", 1, "FAIL", "med", "safe_exit", "ASK_MINIMAL_QUESTION"},
		{"evidence fails after max retry", true, false, true, 1, true, "QUALITY", 2, "FAIL", "med", "safe_exit", "ASK_MINIMAL_QUESTION"},
		{"weak evidence on fast answers restricted, no retry", true, false, true, 1, true, "FAST", 0, "PASS", "med", "finalize", "RESTRICT_SCOPE"},
		{"weak evidence on fast after max retry still answers restricted", true, false, true, 1, true, "FAST", 2, "PASS", "med", "finalize", "RESTRICT_SCOPE"},
		{"weak evidence and a broken contract on fast asks a question", true, false, false, 1, true, "FAST", 0, "FAIL", "med", "safe_exit", "ASK_MINIMAL_QUESTION"},
		{"contract retry", true, true, false, 2, true, "QUALITY", 1, "RETRY", "low", "retry_bump", "-"},
		{"contract fails after max retry", true, true, false, 2, true, "QUALITY", 2, "FAIL", "low", "safe_exit", "SAFE_REFUSAL"},
		{"pass", true, true, true, 2, true, "QUALITY", 0, "PASS", "low", "finalize", "-"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := dt.Evaluate(map[string]any{"policy_ok": tc.policy, "evidence_ok": tc.evidence, "evidence_items": tc.items,
				"retry_useful": tc.useful, "contract_ok": tc.contract, "track": tc.track, "retry_count": tc.retries})
			require.NoError(t, err)
			assert.Equal(t, []string{tc.verdict, tc.risk, tc.next, tc.action},
				[]string{res.Get("verdict"), res.Get("risk_level"), res.Get("next"), res.Get("required_action")})
		})
	}
}

func TestThresholdsComeFromConfig(t *testing.T) {
	dt := get(t, standard(t, Config{SpamThreshold: 0.5, ConfidenceThreshold: 0.6, MaxRetries: 2}), "DT-002")
	res, err := dt.Evaluate(map[string]any{"spam_score": 0.55, "intent_confidence": 0.9, "guardian_level": "Safe"})
	require.NoError(t, err)
	assert.Equal(t, "block", res.Get("action"))
	assert.Contains(t, dt.Markdown(), ">= 0.5")
}

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{SpamThreshold: 1.2, ConfidenceThreshold: 0.6}, "spam_threshold: 1.2 is outside [0,1]"},
		{Config{SpamThreshold: 0.7, ConfidenceThreshold: -1}, "confidence_threshold: -1 is outside [0,1]"},
		{Config{SpamThreshold: 0.7, ConfidenceThreshold: 0.6, MaxRetries: 11}, "max_retries: 11 is outside 0..10"},
	} {
		_, err := Standard(tc.cfg)
		assert.ErrorContains(t, err, tc.want)
	}
}

func TestEvaluateErrors(t *testing.T) {
	dt := get(t, standard(t, DefaultConfig()), "DT-002")
	tests := []struct {
		name string
		in   map[string]any
		want string
	}{
		{"missing input", map[string]any{"spam_score": 0.1, "guardian_level": "Safe"}, "DT-002: input intent_confidence is missing"},
		{"not a number", map[string]any{"spam_score": "lots", "intent_confidence": 0.9, "guardian_level": "Safe"}, "spam_score: lots is not a number"},
		{"value not allowed", map[string]any{"spam_score": 0.1, "intent_confidence": 0.9, "guardian_level": "Dangerous"}, `guardian_level: "Dangerous" is not one of "Safe", "Controversial", "Unsafe", "N/A", "Unknown"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := dt.Evaluate(tc.in)
			assert.ErrorContains(t, err, tc.want)
		})
	}
	partial, err := tables.New(tables.Table{ID: "T", Inputs: []tables.Column{{Name: "x", Type: tables.TypeNumber}}, Outputs: []tables.Column{{Name: "o", Type: tables.TypeString}},
		Rules: []tables.Rule{{Inputs: []string{"> 1"}, Outputs: []string{"big"}}}})
	require.NoError(t, err)
	_, err = partial.Evaluate(map[string]any{"x": 0.5})
	assert.EqualError(t, err, "T: no rule matches x=0.5")
}

func TestEvaluateAcceptsNumericStringsAndInts(t *testing.T) {
	dt := get(t, standard(t, DefaultConfig()), "DT-005")
	res, err := dt.Evaluate(map[string]any{"policy_ok": "true", "evidence_ok": true, "evidence_items": "3", "retry_useful": "true", "contract_ok": "false", "track": "FAST", "retry_count": "2"})
	require.NoError(t, err)
	assert.Equal(t, "FAIL", res.Get("verdict"))
}

func TestSetGet(t *testing.T) {
	s := standard(t, DefaultConfig())
	for _, key := range []string{"DT-002", "dt-002", "sgr_routing", "SGR_ROUTING"} {
		tbl, err := s.Get(key)
		require.NoError(t, err)
		assert.Equal(t, "DT-002", tbl.ID)
	}
	_, err := s.Get("DT-999")
	assert.ErrorContains(t, err, `table "DT-999": no such table (tables: DT-001 (guardian_enforcement)`)
}

func TestParseInputs(t *testing.T) {
	s := standard(t, DefaultConfig())
	dt := get(t, s, "DT-005")
	in, err := tables.ParseInputs(dt, []string{"policy_ok=true", "retry_count=2", "track=FAST"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"policy_ok": true, "retry_count": 2.0, "track": "FAST",
		"evidence_ok": nil, "evidence_items": nil, "retry_useful": nil, "contract_ok": nil}, in, "inputs not given are DMN's null")
	_, err = dt.Evaluate(in)
	assert.ErrorContains(t, err, "no rule matches contract_ok=null", "null matches only -, and every rule tests the contract")
	dt1 := get(t, s, "DT-001")
	in, err = tables.ParseInputs(dt1, []string{"guardian_level=Unsafe", "guard_mode=report"})
	require.NoError(t, err)
	res, err := dt1.Evaluate(in)
	require.NoError(t, err)
	assert.Equal(t, "Continue", res.Get("decision"), "a report-mode Unsafe continues whatever the policy")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"retry_count"}, `"retry_count": want key=value`},
		{[]string{"retries=2"}, `retries: DT-005 has no input "retries"`},
		{[]string{"retry_count=two"}, "retry_count: two is not a number"},
		{[]string{"policy_ok=maybe"}, "policy_ok: maybe is not true or false"},
		{[]string{"track=SLOW"}, `track: "SLOW" is not one of "QUALITY", "FAST"`},
	} {
		_, err := tables.ParseInputs(dt, tc.args)
		assert.ErrorContains(t, err, tc.want)
	}
}

func TestMarkdownAndJSON(t *testing.T) {
	dt := get(t, standard(t, DefaultConfig()), "DT-002")
	md := dt.Markdown()
	assert.Contains(t, md, "### DT-002: SGR Routing Decision")
	assert.Contains(t, md, "| # | spam_score | intent_confidence | guardian_level | → action | → template | → flow | annotation |")
	assert.Contains(t, md, `| 3 | >= 0.7 | - | "Safe","Controversial","N/A","Unknown" | block | block | Stop | Stop, show refusal |`)
	assert.Contains(t, md, "Hit policy: FIRST")

	b, err := json.Marshal(dt)
	require.NoError(t, err)
	var back tables.Table
	require.NoError(t, json.Unmarshal(b, &back))
	again, err := tables.New(back)
	require.NoError(t, err)
	res, err := again.Evaluate(map[string]any{"spam_score": 0.7, "intent_confidence": 0.9, "guardian_level": "Safe"})
	require.NoError(t, err)
	assert.Equal(t, 3, res.Rule, "a table read back from JSON decides the same")
}
