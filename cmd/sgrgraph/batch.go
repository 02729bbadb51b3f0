package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/sgrgraph/sgrgraph/batch"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/runs"
	"github.com/sgrgraph/sgrgraph/templates"
)

func newBatchCmd(a *app) *cobra.Command {
	var f turnFlags
	var o batch.Options
	var example string
	var exampleRows int
	var force bool
	var queue, lang string
	var queueWait time.Duration
	o.Columns = batch.DefaultColumns()
	cmd := &cobra.Command{
		Use:   "batch --input FILE",
		Short: "Run every row of a request table (.xlsx, .csv, .jsonl) through the default turn",
		Long: "batch runs each row's request (\"# subject\" and the description, HTML converted to Markdown) through the\n" +
			"same handler as ask. Finished rows go at once to a results file beside the output table, named after it\n" +
			"without its extension (tickets.xlsx → tickets.out.xlsx and tickets.out.results.jsonl), with the full result\n" +
			"of each row; re-running the same command skips them, unless a row's request changed since: such a row\n" +
			"runs again and its new result replaces the old. The output table keeps every input column and adds\n" +
			strings.Join(batch.ResultColumns("en"), ", ") + " (--lang ru: " + strings.Join(batch.ResultColumns("ru"), ", ") + ").\n" +
			"The answer column starts a written answer with an AI disclaimer and the recommended articles.",
		Example: "  sgrgraph batch --make-example tickets.xlsx\n  sgrgraph batch --input tickets.xlsx --concurrency 8",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Numbers are checked as typed, before anything is read or written.
			if err := o.CheckNumbers(); err != nil {
				return err
			}
			if example != "" {
				return makeExample(a, example, exampleRows, force)
			}
			for _, name := range []string{"rows", "force"} {
				if cmd.Flags().Changed(name) {
					return fmt.Errorf("--%s: only with --make-example FILE", name)
				}
			}
			if queue == "" && cmd.Flags().Changed("queue-wait") {
				return fmt.Errorf("--queue-wait: only with --queue redis://HOST:PORT/DB")
			}
			if queueWait <= 0 {
				return fmt.Errorf("--queue-wait: %s is not above 0", queueWait)
			}
			texts, err := batchTexts(f.config(a), lang)
			if err != nil {
				return err
			}
			o.Texts = texts
			var h batch.Handler
			if queue != "" {
				if !cmd.Flags().Changed("concurrency") {
					o.Concurrency = batch.MaxConcurrency // the workers set the pace
				}
				remote, done, err := queueHandler(cmd, queue, queueWait, o)
				if err != nil {
					return err
				}
				defer done()
				fmt.Fprintf(a.errOut, "rows go to the workers of the queue (sgrgraph worker --queue %s)\n", queue)
				h = remote
			} else {
				ag, done, err := f.build(cmd, a)
				if err != nil {
					return err
				}
				defer done()
				h = ag
			}
			o.Progress, o.Terminal = a.errOut, isTerminal(a.errOut)
			sum, err := batch.Run(cmd.Context(), h, o)
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
	fl.IntVar(&o.Start, "start", 1, "the first data row to run, 1 and up (1 is the first)")
	fl.IntVar(&o.Limit, "limit", 0, "the most rows to run from --start, 0 and up (0 runs every row)")
	fl.StringVar(&o.Columns.ID, "id-col", o.Columns.ID, "the column of unique row IDs")
	fl.StringVar(&o.Columns.Subject, "subject-col", o.Columns.Subject, "the column of the request's subject")
	fl.StringVar(&o.Columns.Description, "description-col", o.Columns.Description, "the column of the request's description (HTML or text)")
	fl.StringVar(&o.Columns.Role, "role-col", "", "the column of each asker's role, for the query policy's denied_request_types (default: no roles)")
	fl.StringVar(&example, "make-example", "", "write an example request table to this file and stop (an existing file only with --force)")
	fl.IntVar(&exampleRows, "rows", 200, fmt.Sprintf("rows of the example table, 1..%d", batch.MaxExampleRows))
	fl.StringVar(&queue, "queue", "", "run the rows on the workers of this Redis queue (sgrgraph worker), redis://HOST:PORT/DB; --concurrency is then the rows queued at once (default 64)")
	fl.DurationVar(&queueWait, "queue-wait", 10*time.Minute, "with --queue: how long a row may wait for a worker while no worker takes or finishes a run; past it, and past the worker's turn timeout for a row that started, the row fails")
	fl.BoolVar(&force, "force", false, "let --make-example replace an existing file")
	fl.StringVar(&lang, "lang", "", "the language of the added column names and labels, ru or en (default: the configuration's language)")
	f.registerKB(cmd)
	f.registerModel(cmd)
	return cmd
}

// batchTexts are the words of the output table: its column names in lang
// (else the configuration's language), the disclaimer from the configured
// catalogue, naming the product.
func batchTexts(cfg config.Config, lang string) (batch.Texts, error) {
	lang = cmp.Or(lang, cfg.Language)
	if err := contracts.CheckLanguage("--lang", lang); err != nil {
		return batch.Texts{}, err
	}
	texts, err := templates.Open(cfg.Texts)
	if err != nil {
		return batch.Texts{}, err
	}
	return batch.Texts{Language: lang, Product: cfg.Product, Answers: texts}, nil
}

// makeExample writes the example table; an existing file is kept unless
// force says to replace it.
func makeExample(a *app, path string, rows int, force bool) error {
	if err := batch.CheckExampleRows(rows); err != nil {
		return err
	}
	if _, err := os.Stat(path); err == nil && !force {
		return fmt.Errorf("--make-example: %s already exists; add --force to replace it", path)
	}
	if err := batch.WriteExample(path, rows); err != nil {
		return err
	}
	fmt.Fprintf(a.out, "wrote %d example rows to %s\n", rows, path)
	return nil
}

func printSummary(a *app, s batch.Summary) {
	fmt.Fprintf(a.out, "batch: %d rows: %d done, %d failed, %d skipped (done before), %d not run\n",
		s.Rows, s.Done, s.Failed, s.Skipped, s.NotRun)
	if s.Changed > 0 {
		fmt.Fprintf(a.out, "changed: %d rows ask something else than their last result answered; they run again and the new result replaces the old\n", s.Changed)
	}
	if s.Unhashed > 0 {
		fmt.Fprintf(a.out, "unhashed: %d results had no request hash (an earlier version wrote them); each was checked against the request text it kept: kept if the row still asks it, run again if not\n", s.Unhashed)
	}
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

// queueHandler runs rows on the queue's workers. The rows' run ids are
// named after the input and output files, so that running the same command
// again finds the runs the workers finished, and runs none of them twice.
// A row waits for its run as long as the run's limits say (runs.Queue.Wait),
// queueWait being the time it may wait for a worker.
func queueHandler(cmd *cobra.Command, url string, queueWait time.Duration, o batch.Options) (batch.Handler, func(), error) {
	q, err := runs.Open(cmd.Context(), url, runs.Options{QueueWait: queueWait})
	if err != nil {
		return nil, nil, fmt.Errorf("--queue: %w", err)
	}
	in, err := filepath.Abs(o.Input)
	if err != nil {
		q.Close()
		return nil, nil, fmt.Errorf("--input: %w", err)
	}
	out := o.Output
	if out != "" {
		if out, err = filepath.Abs(out); err != nil {
			q.Close()
			return nil, nil, fmt.Errorf("--output: %w", err)
		}
	}
	sum := sha256.Sum256([]byte(in + "\x00" + out))
	return runs.Remote{Queue: q, Owner: "batch", Namespace: "batch-" + hex.EncodeToString(sum[:8])}, func() { q.Close() }, nil
}
