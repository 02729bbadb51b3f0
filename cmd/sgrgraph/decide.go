package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/tables"
)

func newDecideCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "decide TABLE key=value ...",
		Short: "Evaluate one decision table and print the matched rule and its outputs",
		Example: "  sgrgraph decide DT-002 spam_score=0.2 intent_confidence=0.9 guardian_level=Safe\n" +
			"  sgrgraph decide DT-001 guardian_level=Unsafe guard_mode=report policy=ALLOW --json",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			set, err := a.tables()
			if err != nil {
				return err
			}
			t, err := set.Get(args[0])
			if err != nil {
				return err
			}
			in, err := tables.ParseInputs(t, args[1:])
			if err != nil {
				return err
			}
			res, err := t.Evaluate(in)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.out, map[string]any{"table": t.ID, "name": t.Name, "inputs": in, "rule": res.Rule, "outputs": res.Outputs})
			}
			return printDecision(a, t, res)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the decision as JSON")
	return cmd
}

func printDecision(a *app, t *tables.Table, res tables.Result) error {
	fmt.Fprintf(a.out, "%s %s: rule %d\n", t.ID, t.Name, res.Rule)
	w := tabwriter.NewWriter(a.out, 0, 2, 1, ' ', 0)
	for _, col := range t.Outputs {
		fmt.Fprintf(w, "  %s\t= %s\n", col.Name, res.Outputs[col.Name])
	}
	return w.Flush()
}
