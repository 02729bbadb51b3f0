package tables

import "fmt"

// guardianVerdict is the verdict logic of seed 004 §9 with the flow of §5: a
// policy violation fails at once; an answer with no evidence at all is
// retried on either track (the agent stopped before it looked); any other
// evidence failure is retried only on the QUALITY track; a contract failure
// is retried on either; retries end at MaxRetries.
func guardianVerdict(c Config) Table {
	left, spent := fmt.Sprintf("< %d", c.MaxRetries), fmt.Sprintf(">= %d", c.MaxRetries)
	m := c.MaxRetries
	return Table{
		ID: "DT-005", Name: "guardian_verdict", Title: "Guardian Verdict Decision",
		Description: "PASS, RETRY or FAIL from the policy, evidence and contract checks and the retries spent.",
		Inputs: []Column{
			{Name: "policy_ok", Type: TypeBool}, {Name: "evidence_ok", Type: TypeBool}, {Name: "evidence_items", Type: TypeNumber, Range: ">= 0"},
			{Name: "contract_ok", Type: TypeBool},
			{Name: "track", Type: TypeString, Values: []string{"QUALITY", "FAST"}},
			{Name: "retry_count", Type: TypeNumber, Range: ">= 0"},
		},
		Outputs: []Column{
			{Name: "verdict", Type: TypeString}, {Name: "risk_level", Type: TypeString},
			{Name: "next", Type: TypeString}, {Name: "fail_action", Type: TypeString},
		},
		Rules: []Rule{
			{Inputs: []string{"false", "-", "-", "-", "-", "-"}, Outputs: []string{"FAIL", "high", "safe_exit", "SAFE_REFUSAL"}, Annotation: "policy violation: no retry"},
			{Inputs: []string{"true", "false", "0", "-", "-", left}, Outputs: []string{"RETRY", "med", "retry_bump", "-"}, Annotation: "answered with no evidence, retries left"},
			{Inputs: []string{"true", "false", "-", "-", `"QUALITY"`, left}, Outputs: []string{"RETRY", "med", "retry_bump", "-"}, Annotation: "evidence insufficient, retries left"},
			{Inputs: []string{"true", "false", "-", "-", "-", "-"}, Outputs: []string{"FAIL", "med", "safe_exit", "ASK_MINIMAL_QUESTION"}, Annotation: "evidence insufficient, no retry"},
			{Inputs: []string{"true", "true", "-", "false", "-", left}, Outputs: []string{"RETRY", "low", "retry_bump", "-"}, Annotation: "contract broken, retries left"},
			{Inputs: []string{"true", "true", "-", "false", "-", spent}, Outputs: []string{"FAIL", "low", "safe_exit", "SAFE_REFUSAL"}, Annotation: "contract broken, no retries left"},
			{Inputs: []string{"true", "true", "-", "true", "-", "-"}, Outputs: []string{"PASS", "low", "finalize", "-"}, Annotation: "all checks passed"},
		},
		Examples: []Example{
			verdictEx(1, false, true, 3, true, "QUALITY", 0),
			verdictEx(1, false, false, 0, false, "FAST", m),
			verdictEx(2, true, false, 0, true, "FAST", 0),
			verdictEx(2, true, false, 0, true, "QUALITY", m-1),
			verdictEx(3, true, false, 1, true, "QUALITY", 0),
			verdictEx(3, true, false, 1, true, "QUALITY", m-1),
			verdictEx(4, true, false, 1, true, "QUALITY", m),
			verdictEx(4, true, false, 0, true, "FAST", m),
			verdictEx(4, true, false, 2, true, "FAST", 0),
			verdictEx(5, true, true, 2, false, "QUALITY", 0),
			verdictEx(5, true, true, 1, false, "FAST", m-1),
			verdictEx(6, true, true, 2, false, "QUALITY", m),
			verdictEx(7, true, true, 2, true, "QUALITY", 0),
			verdictEx(7, true, true, 1, true, "FAST", m),
		},
	}
}

func verdictEx(rule int, policy, evidence bool, items int, contract bool, track string, retries int) Example {
	return ex(rule, "policy_ok", policy, "evidence_ok", evidence, "evidence_items", items, "contract_ok", contract,
		"track", track, "retry_count", retries)
}
