// Package tables holds decision tables as data (DMN, hit policy FIRST):
// the evaluator, the linter and the gap check, DMN 1.3 and JSON reading and
// writing, Markdown printing, and sets of tables that tables edited outside
// the program replace once they pass every check. It knows no graph's
// tables; those of the default turn are in package decisions.
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
//	t, _ := tables.New(tables.Table{ID: "Q-1", Name: "queue",
//		Inputs:  []tables.Column{{Name: "urgent", Type: tables.TypeBool}},
//		Outputs: []tables.Column{{Name: "queue", Type: tables.TypeString}},
//		Rules:   []tables.Rule{{Inputs: []string{"true"}, Outputs: []string{"oncall"}}, {Inputs: []string{"-"}, Outputs: []string{"support"}}}})
//	res, _ := t.Evaluate(map[string]any{"urgent": true})
//	fmt.Println(res.Rule, res.Get("queue")) // 1 oncall
package tables
