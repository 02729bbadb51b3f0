package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/models/openai"
)

func newDoctorCmd(a *app) *cobra.Command {
	var f turnFlags
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the configured model and guard endpoints and say what to change",
		Long: "doctor calls each configured endpoint: is it reachable, is the key accepted, is the model served,\n" +
			"which forced tool choice does it take; and does the guard answer. A failure the retry policy\n" +
			"(model.retry) mends is retried and shown; only a definite refusal changes the advice.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg := a.cfg
			f.override(&cfg)
			if err := cfg.Validate(); err != nil {
				return err
			}
			ctx := cmd.Context()
			failed := 0
			report := func(what string, c openai.Check) {
				mark := "ok  "
				if !c.OK {
					mark, failed = "FAIL", failed+1
				}
				fmt.Fprintf(a.out, "%s  %s: %s: %s\n", mark, what, c.Name, c.Detail)
				if c.Fix != "" {
					fmt.Fprintf(a.out, "      -> %s\n", c.Fix)
				}
			}
			if cfg.Model.Provider == "offline" {
				report("model", openai.Check{Name: "offline", OK: true, Detail: "the embedded engine, nothing to reach"})
			} else {
				sgr, ag := cfg.Model.For("sgr"), cfg.Model.For("agent")
				for _, c := range openai.Probe(ctx, agent.OpenAIConfig(sgr, cfg.Model)) {
					report("model "+sgr.Name, c)
				}
				if ag.Name != sgr.Name || ag.BaseURL != sgr.BaseURL {
					for _, c := range openai.Probe(ctx, agent.OpenAIConfig(ag, cfg.Model)) {
						report("agent model "+ag.Name, c)
					}
				}
			}
			report("guard", checkGuard(ctx, a))
			if failed > 0 {
				return fmt.Errorf("doctor: %d check(s) failed", failed)
			}
			return nil
		},
	}
	f.registerModel(cmd)
	return cmd
}

// checkGuard classifies a harmless message; Unknown means the guard could
// not be reached or read.
func checkGuard(ctx context.Context, a *app) openai.Check {
	g := a.cfg.Guard
	clf, err := agent.NewGuard(g)
	if err != nil {
		return openai.Check{Name: g.Provider, Detail: err.Error(), Fix: "fix guard.lexicon"}
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	m, err := clf.Classify(ctx, "Hello, how do I reset my password?")
	switch {
	case err != nil:
		return openai.Check{Name: g.Provider, Detail: err.Error(), Fix: "start the guard service, or set guard.url to where it listens"}
	case m.Level == contracts.LevelUnknown:
		return openai.Check{Name: g.Provider, Detail: "answered, but not in a form sgrgraph reads: " + m.Raw,
			Fix: "point guard.url at a mosec guard or a Qwen3Guard model (guard.provider)"}
	}
	return openai.Check{Name: g.Provider, OK: true, Detail: fmt.Sprintf("answers (a harmless message is %s)", m.Level)}
}
