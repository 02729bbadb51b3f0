package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/sgrgraph/sgrgraph/batch"
)

func newBatchCmd(a *app) *cobra.Command {
	var f turnFlags
	var o batch.Options
	var example string
	var exampleRows int
	o.Columns = batch.DefaultColumns()
	cmd := &cobra.Command{
		Use:   "batch --input FILE",
		Short: "Run every row of a request table (.xlsx, .csv, .jsonl) through the default turn",
		Long: "batch runs each row's request (\"# subject\" and the description, HTML converted to Markdown) through the\n" +
			"same handler as ask. Finished rows go at once to a results file (<output>.results.jsonl, the full result\n" +
			"of each row); re-running the same command skips them. The output table keeps every input column and adds\n" +
			strings.Join(batch.ResultColumns, ", ") + ".",
		Example: "  sgrgraph batch --make-example tickets.xlsx\n  sgrgraph batch --input tickets.xlsx --concurrency 8",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if example != "" {
				if err := batch.WriteExample(example, exampleRows); err != nil {
					return err
				}
				fmt.Fprintf(a.out, "wrote %d example rows to %s\n", exampleRows, example)
				return nil
			}
			ag, done, err := f.build(cmd, a)
			if err != nil {
				return err
			}
			defer done()
			o.Progress, o.Terminal = a.errOut, isTerminal(a.errOut)
			sum, err := batch.Run(cmd.Context(), ag, o)
			if err != nil {
				return err
			}
			printSummary(a, sum)
			switch {
			case sum.Interrupted:
				return fmt.Errorf("%d rows not run; run the same command again to finish: %w", sum.NotRun, cmd.Context().Err())
			case sum.Failed > 0:
				return fmt.Errorf("batch: %d rows failed (see their error column)", sum.Failed)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.Input, "input", "", "the request table: .xlsx, .csv (UTF-8, \",\" or \";\") or .jsonl")
	fl.StringVar(&o.Output, "output", "", "the output table; its extension chooses the format (default: <input>.out.<ext>)")
	fl.IntVar(&o.Concurrency, "concurrency", 1, fmt.Sprintf("turns run at once, 1..%d", batch.MaxConcurrency))
	fl.IntVar(&o.Start, "start", 1, "the first data row to run (1 = the first)")
	fl.IntVar(&o.Limit, "limit", 0, "the most rows to run from --start (0 = all)")
	fl.StringVar(&o.Columns.ID, "id-col", o.Columns.ID, "the column of unique row IDs")
	fl.StringVar(&o.Columns.Subject, "subject-col", o.Columns.Subject, "the column of the request's subject")
	fl.StringVar(&o.Columns.Description, "description-col", o.Columns.Description, "the column of the request's description (HTML or text)")
	fl.StringVar(&example, "make-example", "", "write an example request table to this file and stop")
	fl.IntVar(&exampleRows, "rows", 200, "rows of the example table")
	f.registerKB(cmd)
	f.registerModel(cmd)
	return cmd
}

func printSummary(a *app, s batch.Summary) {
	fmt.Fprintf(a.out, "batch: %d rows: %d done, %d failed, %d skipped (done before), %d not run\n",
		s.Rows, s.Done, s.Failed, s.Skipped, s.NotRun)
	fmt.Fprintf(a.out, "actions: %s\nverdicts: %s\n", counts(s.Actions), counts(s.Verdicts))
	fmt.Fprintf(a.out, "latency: mean %.1f ms, p95 %.1f ms\n", s.MeanMS, s.P95MS)
	fmt.Fprintf(a.out, "output: %s\nresults: %s\n", s.Output, s.Results)
}

func counts(m map[string]int) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
