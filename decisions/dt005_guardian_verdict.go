package decisions

import (
	"fmt"

	"github.com/sgrgraph/sgrgraph/tables"
)

// guardianVerdict is the verdict logic of seed 004 §9 with the flow of §5:
// a policy violation fails at once and carries no required action (§11:
// no retry can mend it); an answer with no evidence at all is retried on
// either track (the agent stopped before it looked); any other evidence
// failure is retried only on the QUALITY track; on the FAST track weak
// evidence passes with its scope restricted (§3: restrict scope, no
// definitive claims) rather than failing, while an answer with no evidence
// at all fails once its retries are spent; a contract failure is retried
// on either track. No evidence retry is asked when it cannot find anything new
// (retry_useful false: the last retry found nothing the turn had not), and
// retries end at MaxRetries.
func guardianVerdict(c Config) tables.Table {
	left, spent := fmt.Sprintf("< %d", c.MaxRetries), fmt.Sprintf(">= %d", c.MaxRetries)
	m := c.MaxRetries
	return tables.Table{
		ID: "DT-005", Name: "guardian_verdict", Title: "Guardian Verdict Decision",
		Description: "PASS, RETRY or FAIL from the policy, evidence and contract checks, whether a retry could find more, and the retries spent.",
		Inputs: []tables.Column{
			{Name: "policy_ok", Type: tables.TypeBool}, {Name: "evidence_ok", Type: tables.TypeBool}, {Name: "evidence_items", Type: tables.TypeNumber, Range: ">= 0"},
			{Name: "retry_useful", Type: tables.TypeBool},
			{Name: "contract_ok", Type: tables.TypeBool},
			{Name: "track", Type: tables.TypeString, Values: []string{"QUALITY", "FAST"}},
			{Name: "retry_count", Type: tables.TypeNumber, Range: ">= 0"},
		},
		Outputs: []tables.Column{
			{Name: "verdict", Type: tables.TypeString}, {Name: "risk_level", Type: tables.TypeString},
			{Name: "next", Type: tables.TypeString}, {Name: "required_action", Type: tables.TypeString},
		},
		Rules: []tables.Rule{
			{Inputs: []string{"false", "-", "-", "-", "-", "-", "-"}, Outputs: []string{"FAIL", "high", "safe_exit", "-"}, Annotation: "policy violation: no retry, no required action"},
			{Inputs: []string{"true", "false", "0", "true", "-", "-", left}, Outputs: []string{"RETRY", "med", "retry_bump", "-"}, Annotation: "answered with no evidence, retries left"},
			{Inputs: []string{"true", "false", "-", "true", "-", `"QUALITY"`, left}, Outputs: []string{"RETRY", "med", "retry_bump", "-"}, Annotation: "evidence insufficient, retries left"},
			{Inputs: []string{"true", "false", ">= 1", "-", "true", `"FAST"`, "-"}, Outputs: []string{"PASS", "med", "finalize", "RESTRICT_SCOPE"}, Annotation: "fast track, weak evidence: answer with restricted scope"},
			{Inputs: []string{"true", "false", "-", "-", "-", "-", "-"}, Outputs: []string{"FAIL", "med", "safe_exit", "ASK_MINIMAL_QUESTION"}, Annotation: "evidence insufficient, no retry"},
			{Inputs: []string{"true", "true", "-", "-", "false", "-", left}, Outputs: []string{"RETRY", "low", "retry_bump", "-"}, Annotation: "contract broken, retries left"},
			{Inputs: []string{"true", "true", "-", "-", "false", "-", spent}, Outputs: []string{"FAIL", "low", "safe_exit", "SAFE_REFUSAL"}, Annotation: "contract broken, no retries left"},
			{Inputs: []string{"true", "true", "-", "-", "true", "-", "-"}, Outputs: []string{"PASS", "low", "finalize", "-"}, Annotation: "all checks passed"},
		},
		Examples: []tables.Example{
			verdictEx(1, false, true, 3, true, true, "QUALITY", 0),
			verdictEx(1, false, false, 0, true, false, "FAST", m),
			verdictEx(2, true, false, 0, true, true, "FAST", 0),
			verdictEx(2, true, false, 0, true, true, "QUALITY", m-1),
			verdictEx(3, true, false, 1, true, true, "QUALITY", 0),
			verdictEx(3, true, false, 1, true, false, "QUALITY", m-1),
			verdictEx(4, true, false, 1, true, true, "FAST", 0),
			verdictEx(4, true, false, 3, false, true, "FAST", m),
			verdictEx(5, true, false, 0, true, true, "FAST", m),
			verdictEx(5, true, false, 0, false, true, "FAST", 1),
			verdictEx(5, true, false, 1, true, true, "QUALITY", m),
			verdictEx(5, true, false, 1, false, true, "QUALITY", 1),
			verdictEx(5, true, false, 2, true, false, "FAST", 0),
			verdictEx(6, true, true, 2, true, false, "QUALITY", 0),
			verdictEx(6, true, true, 1, true, false, "FAST", m-1),
			verdictEx(7, true, true, 2, true, false, "QUALITY", m),
			verdictEx(8, true, true, 2, true, true, "QUALITY", 0),
			verdictEx(8, true, true, 1, false, true, "FAST", m),
		},
	}
}

func verdictEx(rule int, policy, evidence bool, items int, useful, contract bool, track string, retries int) tables.Example {
	return ex(rule, "policy_ok", policy, "evidence_ok", evidence, "evidence_items", items, "retry_useful", useful,
		"contract_ok", contract, "track", track, "retry_count", retries)
}
