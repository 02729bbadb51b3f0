// Package tables holds decision tables as data (DMN, hit policy FIRST) and
// the standard tables of an sgrgraph turn: DT-001 guardian enforcement,
// DT-002 SGR routing, DT-003 SGR tool binding, DT-004 output routing, DT-005
// the Guardian's verdict and DT-006 track selection.
//
// A table is a value: named input and output columns, rules whose input
// entries are DMN unary tests ("-", "< 0.7", "[0.3..0.7)", "\"Safe\",\"Controversial\"",
// "not(\"Unsafe\")"), and examples it carries for its own tests. Each input
// column carries its domain (the values a string takes, the range of a
// number), and a value outside it is refused by name and limit. The same
// value drives a conditional edge, prints as Markdown or JSON and feeds the
// tests.
//
// # Example
//
//	set, _ := tables.Standard(tables.DefaultConfig())
//	dt, _ := set.Get("DT-002")
//	res, _ := dt.Evaluate(map[string]any{"spam_score": 0.7, "intent_confidence": 0.9, "guardian_level": "Safe"})
//	fmt.Println(res.Rule, res.Get("action")) // 3 block
package tables
