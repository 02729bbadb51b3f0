// Package decisions holds the decision tables of the default turn, built
// from the thresholds of the configuration's tables section: DT-001
// guardian enforcement, DT-002 SGR routing, DT-003 SGR tool binding, DT-004
// output routing, DT-005 the Guardian's verdict and DT-006 track selection.
// The engine that evaluates, checks, prints and loads them is package
// tables.
//
// # Example
//
//	set, _ := decisions.Standard(decisions.DefaultConfig())
//	dt, _ := set.Get("DT-002")
//	res, _ := dt.Evaluate(map[string]any{"spam_score": 0.7, "intent_confidence": 0.9, "guardian_level": "Safe"})
//	fmt.Println(res.Rule, res.Get("action")) // 3 block
package decisions
