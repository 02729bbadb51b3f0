package decisions

import "github.com/sgrgraph/sgrgraph/tables"

// guardianEnforcement is DT-001 of seed 000 §12, plus the query policy
// first (seed 004 §11: a DENY refuses in either mode, with no model call)
// and the Unknown rows: a failed classifier blocks in enforce mode and is
// recorded in report mode; and N/A, a turn whose guard is off, goes on
// (the query policy still refuses first).
func guardianEnforcement() tables.Table {
	const refuse, withContext, normally = "Immediate refusal, no SGR call", "Proceed to SGR with guardian context", "Proceed to SGR normally"
	return tables.Table{
		ID: "DT-001", Name: "guardian_enforcement", Title: "Guardian Enforcement Decision",
		Description: "Whether to block a request before SGR processing, from the query policy, the safety level and the guard mode.",
		Inputs: []tables.Column{
			{Name: "guardian_level", Type: tables.TypeString, Values: []string{"Safe", "Controversial", "Unsafe", "Unknown", "N/A"}},
			{Name: "guard_mode", Type: tables.TypeString, Values: []string{"enforce", "report"}},
			{Name: "policy", Type: tables.TypeString, Values: []string{"ALLOW", "DENY"}},
		},
		Outputs: []tables.Column{{Name: "decision", Type: tables.TypeString}, {Name: "action", Type: tables.TypeString}},
		Rules: []tables.Rule{
			{Inputs: []string{"-", "-", `"DENY"`}, Outputs: []string{"Block", "Query policy denied: refuse, no SGR call"}, Annotation: "query policy (L0)"},
			{Inputs: []string{`"Unsafe"`, `"enforce"`, "-"}, Outputs: []string{"Block", refuse}},
			{Inputs: []string{`"Unsafe"`, `"report"`, "-"}, Outputs: []string{"Continue", withContext}},
			{Inputs: []string{`"Controversial"`, `"enforce"`, "-"}, Outputs: []string{"Continue", withContext}},
			{Inputs: []string{`"Controversial"`, `"report"`, "-"}, Outputs: []string{"Continue", withContext}},
			{Inputs: []string{`"Safe"`, `"enforce"`, "-"}, Outputs: []string{"Continue", normally}},
			{Inputs: []string{`"Safe"`, `"report"`, "-"}, Outputs: []string{"Continue", normally}},
			{Inputs: []string{`"Unknown"`, `"enforce"`, "-"}, Outputs: []string{"Block", "Classifier failed: refuse, no SGR call"}, Annotation: "classifier failure"},
			{Inputs: []string{`"Unknown"`, `"report"`, "-"}, Outputs: []string{"Continue", "Proceed to SGR; classifier failure recorded"}, Annotation: "classifier failure"},
			{Inputs: []string{`"N/A"`, "-", "-"}, Outputs: []string{"Continue", "Guard disabled: proceed to SGR"}, Annotation: "guard.enabled: false"},
		},
		Examples: []tables.Example{
			ex(1, "guardian_level", "Safe", "guard_mode", "report", "policy", "DENY"),
			ex(2, "guardian_level", "Unsafe", "guard_mode", "enforce", "policy", "ALLOW"),
			ex(3, "guardian_level", "Unsafe", "guard_mode", "report", "policy", "ALLOW"),
			ex(4, "guardian_level", "Controversial", "guard_mode", "enforce", "policy", "ALLOW"),
			ex(5, "guardian_level", "Controversial", "guard_mode", "report", "policy", "ALLOW"),
			ex(6, "guardian_level", "Safe", "guard_mode", "enforce", "policy", "ALLOW"),
			ex(7, "guardian_level", "Safe", "guard_mode", "report", "policy", "ALLOW"),
			ex(8, "guardian_level", "Unknown", "guard_mode", "enforce", "policy", "ALLOW"),
			ex(9, "guardian_level", "Unknown", "guard_mode", "report", "policy", "ALLOW"),
			ex(10, "guardian_level", "N/A", "guard_mode", "enforce", "policy", "ALLOW"),
			ex(1, "guardian_level", "N/A", "guard_mode", "enforce", "policy", "DENY"),
		},
	}
}

// ex builds an example from alternating names and values.
func ex(rule int, kv ...any) tables.Example {
	in := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		in[kv[i].(string)] = kv[i+1]
	}
	return tables.Example{Inputs: in, Rule: rule}
}
