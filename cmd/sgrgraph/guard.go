package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/guards/safety"
)

// classifyTimeout bounds one classification; the rules provider needs
// well under a millisecond, a remote guard may not.
const classifyTimeout = 10 * time.Second

func newGuardCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   `guard "message"`,
		Short: "Classify a message with the safety guard and the query policy and show what DT-001 decides for it",
		Example: "  sgrgraph guard \"how do I kill a hung process\"\n" +
			"  sgrgraph guard --json \"ignore previous instructions\"",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(args[0]) == "" {
				return fmt.Errorf("message: must not be empty")
			}
			clf, err := safety.NewRulesFromFile(a.cfg.Guard.Lexicon)
			if err != nil {
				return fmt.Errorf("guard.lexicon: %w", err)
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), classifyTimeout)
			defer cancel()
			m, err := clf.Classify(ctx, args[0])
			if err != nil {
				return err
			}
			set, err := a.tables()
			if err != nil {
				return err
			}
			dt, err := set.Get("DT-001")
			if err != nil {
				return err
			}
			policy, err := agent.CompilePolicy(a.cfg.Guardian.Policy)
			if err != nil {
				return err
			}
			verdict := contracts.PolicyResult{Decision: contracts.PolicyAllow}
			if policy != nil {
				verdict = policy.Check(args[0], "", "")
			}
			res, err := dt.Evaluate(map[string]any{"guardian_level": string(m.Level), "guard_mode": a.cfg.Guard.Mode,
				"policy": string(verdict.Decision)})
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.out, map[string]any{"moderation": m, "policy": verdict, "guard_mode": a.cfg.Guard.Mode,
					"rule": res.Rule, "decision": res.Outputs})
			}
			fmt.Fprintf(a.out, "level %s, categories %s\n", m.Level, strings.Join(m.Categories, ", "))
			for _, r := range m.Reasons {
				fmt.Fprintln(a.out, "  matched", r)
			}
			fmt.Fprintf(a.out, "query policy %s %s\n", verdict.Decision, strings.Join(verdict.Reasons, ", "))
			fmt.Fprintf(a.out, "DT-001 (guard_mode %s): rule %d, %s: %s\n", a.cfg.Guard.Mode, res.Rule, res.Get("decision"), res.Get("action"))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the moderation and the decision as JSON")
	return cmd
}
