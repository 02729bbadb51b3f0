package main

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/docs"
	"github.com/sgrgraph/sgrgraph/eval"
	"github.com/sgrgraph/sgrgraph/eval/runner"
)

// evalFloorsDoc is the article whose "## Floors" table --check reads.
const evalFloorsDoc = "eval.md"

func newEvalCmd(a *app) *cobra.Command {
	var f turnFlags
	var (
		out, floorsFile, part string
		check                 bool
		topK, parallel        int
		modes                 []string
	)
	cmd := &cobra.Command{
		Use:   "eval SET.jsonl|DIR ...",
		Short: "Run labelled sets through the turn and report guard, routing, retrieval, answer and injection figures",
		Example: "  sgrgraph eval --out report tests/testdata/safety_holdout.jsonl tests/testdata/eval\n" +
			"  sgrgraph eval --check tests/testdata/*.jsonl tests/testdata/eval",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if topK < 1 || topK > 50 {
				return fmt.Errorf("--top-k: %d is outside 1..50", topK)
			}
			if parallel < 1 || parallel > runner.MaxParallel {
				return fmt.Errorf("--parallel: %d is outside 1..%d", parallel, runner.MaxParallel)
			}
			for _, m := range modes {
				if !slices.Contains(runner.Modes, m) {
					return fmt.Errorf("--modes: %q is not one of %s", m, strings.Join(runner.Modes, ", "))
				}
			}
			if part != "" && !slices.Contains(eval.Parts, eval.Part(part)) {
				return fmt.Errorf("--part: %q is not one of dev, heldout", part)
			}
			if part != "" && (check || floorsFile != "") {
				return errors.New("--part: the floors are checked on a whole run, which measures each part apart; leave out --part or --check and --floors")
			}
			floors, err := loadFloors(check, floorsFile)
			if err != nil {
				return err
			}
			sets, err := eval.LoadSets(args)
			if err != nil {
				return err
			}
			if part != "" {
				sets = onlyPart(sets, eval.Part(part))
			}
			cfg := a.cfg
			if f.kbDir != "" {
				cfg.KB.Dir = f.kbDir
			}
			if f.cacheDir != "" {
				cfg.KB.CacheDir = f.cacheDir
			}
			f.override(&cfg)
			ctx := a.log.WithContext(cmd.Context())
			obs, err := runner.Run(ctx, sets, runner.Options{Config: cfg, Modes: modes, Parallel: parallel})
			if err != nil {
				return err
			}
			report := eval.Report{Context: runContext(cfg)}
			for i, s := range sets {
				report.Sets = append(report.Sets, eval.Measure(s, obs[i], topK))
			}
			figures := report.Figures()
			width := 0
			for _, fig := range figures {
				width = max(width, len(fig.Name))
			}
			for _, fig := range figures {
				fmt.Fprintf(a.out, "%-*s %.3f\n", width, fig.Name, fig.Value)
			}
			if out != "" {
				if err := report.Write(out); err != nil {
					return err
				}
				fmt.Fprintf(a.out, "report: %s, %s\n", filepath.Join(out, "report.md"), filepath.Join(out, "report.html"))
			}
			return checkFloors(a, report.Figures(), floors)
		},
	}
	f.registerKB(cmd)
	f.registerModel(cmd)
	cmd.Flags().StringVar(&out, "out", "", "write report.md, report.html and the plots to this folder")
	cmd.Flags().BoolVar(&check, "check", false, "fail when a headline figure is below its floor in the eval article (docs/eval.md)")
	cmd.Flags().StringVar(&floorsFile, "floors", "", "check against the floors table of this Markdown file instead")
	cmd.Flags().StringVar(&part, "part", "", "run only this part of each set: dev (for tuning) or heldout")
	cmd.Flags().IntVar(&topK, "top-k", 5, "the k of retrieval's hit@k")
	cmd.Flags().IntVar(&parallel, "parallel", 1, "turns run at once")
	cmd.Flags().StringSliceVar(&modes, "modes", nil, "injection modes of the A/B (default synthetic,directive,trace)")
	return cmd
}

// onlyPart keeps the items of one part of each set, and the sets that have any.
func onlyPart(sets []eval.Set, p eval.Part) []eval.Set {
	var out []eval.Set
	for _, s := range sets {
		if s = s.Only(p); len(s.Items) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// loadFloors reads the floors to check: from floorsFile when given, else
// from the embedded eval article when check is set; nil when neither.
func loadFloors(check bool, floorsFile string) ([]eval.Floor, error) {
	var text []byte
	var err error
	switch {
	case floorsFile != "":
		text, err = os.ReadFile(floorsFile)
	case check:
		text, err = fs.ReadFile(docs.FS, evalFloorsDoc)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--floors: %w", err)
	}
	floors, err := eval.ParseFloors(string(text))
	if err != nil {
		return nil, fmt.Errorf("--floors: %w", err)
	}
	return floors, nil
}

// runContext says what the turns ran with, for the report's first line.
func runContext(cfg config.Config) []string {
	out := []string{"provider " + cfg.Model.Provider}
	if cfg.Model.Name != "" {
		out = append(out, "model "+cfg.Model.Name)
	}
	kb := cmp.Or(cfg.KB.Dir, "embedded documentation")
	return append(out, "guard "+cfg.Guard.Provider, "guard mode "+cfg.Guard.Mode, "knowledge base "+kb, "injection "+cfg.Agent.Injection)
}

// checkFloors says whether the figures keep the floors: an error naming
// each figure not kept, its value and its floor; none when floors is nil.
func checkFloors(a *app, figures []eval.Figure, floors []eval.Floor) error {
	if floors == nil {
		return nil
	}
	breaches := eval.Check(figures, floors)
	if len(breaches) == 0 {
		fmt.Fprintf(a.out, "floors: all %d kept\n", len(floors))
		return nil
	}
	lines := make([]string, len(breaches))
	for i, b := range breaches {
		lines[i] = b.String()
	}
	return fmt.Errorf("%d of %d floors not kept:\n  %s", len(breaches), len(floors), strings.Join(lines, "\n  "))
}
