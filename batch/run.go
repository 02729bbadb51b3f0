package batch

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// Handler runs one turn: the same handler ask and chat use.
type Handler interface {
	Run(ctx context.Context, t agent.Turn) (contracts.StructuredResult, error)
}

// Summary is what a run did.
type Summary struct {
	Output, Results string
	Rows            int // data rows in the input
	Done, Failed    int // rows run now: answered, or ended with an error
	Skipped         int // rows a previous run finished, for the same request
	NotRun          int // rows outside --start/--limit, or left by an interrupt
	// Changed: rows whose request changed since their last result (same ID,
	// other text); they run again and their new result replaces the old.
	Changed int
	// Unhashed: rows whose latest result had no request hash (an earlier
	// version wrote it). Each was checked against the request text it
	// kept: if the row still asks that, the result is kept and written
	// again with its hash; if not, the row counts as Changed.
	Unhashed      int
	Actions       map[string]int
	Verdicts      map[string]int
	MeanMS, P95MS float64
	Interrupted   bool
}

// job is one row to run.
type job struct {
	row           Row
	id, role      string
	request, hash string
	err           error // a problem of the row itself: recorded, not run
}

type outcome struct {
	rec     Record
	dropped bool // cancelled mid-turn: not finished, not recorded
}

// Run processes the table. Structural problems (unreadable file, missing
// column, duplicate or empty IDs) stop it before any turn runs; a problem
// of one row is recorded in that row. The error is nil when every row ran,
// whatever their outcome: Summary.Failed says how many failed.
func Run(ctx context.Context, h Handler, o Options) (Summary, error) {
	if err := o.settle(); err != nil {
		return Summary{}, err
	}
	plan, err := scan(o.Input, o.Columns, resultColumns(o.Texts.Labels, o.Texts.Language))
	if err != nil {
		return Summary{}, err
	}
	j, err := openJournal(o.Results)
	if err != nil {
		return Summary{}, err
	}
	defer j.close()
	unhashed, err := adoptUnhashed(o.Input, o.Columns, j)
	if err != nil {
		return Summary{}, err
	}
	sum := Summary{Output: o.Output, Results: o.Results, Rows: len(plan.ids), Unhashed: unhashed,
		Actions: map[string]int{}, Verdicts: map[string]int{}}
	// What to run is settled now: the results file is written while the
	// rows are fed, and must not change the plan.
	torun := map[string]bool{}
	for i, id := range plan.ids {
		if n := i + 1; n < o.Start || (o.Limit > 0 && n >= o.Start+o.Limit) {
			sum.NotRun++
			continue
		}
		switch j.state(id, plan.hashes[i]) {
		case rowDone:
			sum.Skipped++
			continue
		case rowChanged:
			sum.Changed++
		}
		torun[id] = true
	}
	todo := len(torun)
	log := zerolog.Ctx(ctx)
	log.Info().Str("input", o.Input).Int("rows", len(plan.ids)).Int("to_run", todo).Int("skipped", sum.Skipped).
		Int("changed", sum.Changed).Int("unhashed", sum.Unhashed).Msg("batch start")

	prog := newProgress(o.Progress, o.Terminal, todo)
	latencies, err := run(ctx, h, o, torun, j, &sum, prog)
	prog.finish()
	if err != nil {
		return sum, err
	}
	sum.Interrupted = ctx.Err() != nil
	sum.NotRun += todo - sum.Done - sum.Failed
	sum.MeanMS, sum.P95MS = stats(latencies)
	if err := writeOutput(o, plan, j); err != nil {
		return sum, err
	}
	return sum, nil
}

// run feeds the rows to the workers and records each result the moment
// it is finished: a slow row holds up nobody, and a crash loses no
// finished row. The output table puts the rows back in input order.
func run(ctx context.Context, h Handler, o Options, torun map[string]bool, j *journal, sum *Summary, prog *progress) ([]float64, error) {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	jobs := make(chan job)
	results := make(chan outcome)
	var feedErr error
	go func() {
		defer close(jobs)
		feedErr = feed(ctx, o, torun, jobs)
	}()
	var wg sync.WaitGroup
	for range o.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range jobs {
				results <- work(ctx, h, jb)
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	var latencies []float64
	var writeErr error
	for out := range results {
		if out.dropped || writeErr != nil {
			continue
		}
		if writeErr = j.append(out.rec); writeErr != nil {
			stop() // a result that cannot be kept must not be asked for
			continue
		}
		latencies = append(latencies, out.rec.LatencyMS)
		count(sum, out.rec)
		prog.add(out.rec.Error != "")
	}
	if writeErr != nil {
		return latencies, writeErr
	}
	return latencies, feedErr
}

// feed reads the table again and sends the rows to run, in order.
func feed(ctx context.Context, o Options, torun map[string]bool, jobs chan<- job) error {
	t, err := openTable(o.Input)
	if err != nil {
		return err
	}
	defer t.close()
	for {
		row, err := t.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		idx := o.Columns.index(t.header()) // a JSONL header grows as keys appear
		id := strings.TrimSpace(cell(row, idx.id))
		if !torun[id] {
			continue
		}
		jb := job{row: row, id: id, role: idx.role(row)}
		jb.request, jb.err = idx.request(row)
		jb.hash = idx.hash(row)
		select {
		case jobs <- jb:
		case <-ctx.Done():
			return nil
		}
	}
}

func work(ctx context.Context, h Handler, jb job) outcome {
	rec := Record{ID: jb.id, Line: jb.row.Line, Request: jb.request, RequestHash: jb.hash}
	if jb.err != nil {
		rec.Error = jb.err.Error()
		return outcome{rec: rec}
	}
	start := time.Now()
	res, err := h.Run(ctx, agent.Turn{SessionID: "batch-" + jb.id, Number: 1, Message: jb.request, Role: jb.role,
		QueryTraces: true}) // the found_articles, found_chunks and confidence columns read them
	rec.LatencyMS = float64(time.Since(start).Microseconds()) / 1000
	if err != nil && ctx.Err() != nil {
		return outcome{dropped: true} // interrupted: run again next time
	}
	if err != nil {
		rec.Error = err.Error()
	}
	if err == nil || res.Failure != nil {
		rec.Result = &res // a failed turn's result says its node and cause
	}
	zerolog.Ctx(ctx).Debug().Str("id", jb.id).Int("line", jb.row.Line).Float64("ms", rec.LatencyMS).Str("error", rec.Error).Msg("row done")
	return outcome{rec: rec}
}

func count(sum *Summary, rec Record) {
	if rec.Error != "" {
		sum.Failed++
	} else {
		sum.Done++
	}
	if rec.Result == nil {
		return
	}
	sum.Actions[string(rec.Result.Action)]++
	v := "-"
	if rec.Result.Verdict != nil {
		v = string(rec.Result.Verdict.Verdict)
	}
	sum.Verdicts[v]++
}

// stats are the mean and the 95th percentile (nearest rank).
func stats(ms []float64) (mean, p95 float64) {
	if len(ms) == 0 {
		return 0, 0
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	total := 0.0
	for _, v := range s {
		total += v
	}
	rank := (95*len(s) + 99) / 100
	return total / float64(len(s)), s[max(rank-1, 0)]
}

// writeOutput writes the output table: every input row in order, its
// cells as they were, then the result columns from the results file.
func writeOutput(o Options, plan tablePlan, j *journal) error {
	t, err := openTable(o.Input)
	if err != nil {
		return err
	}
	defer t.close()
	header := append(slices.Clone(plan.header), resultColumns(o.Texts.Labels, o.Texts.Language)...)
	w, err := createTable(o.Output, header, plan.bom)
	if err != nil {
		return err
	}
	for {
		row, err := t.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			w.abort()
			return err
		}
		results, err := rowResults(j, o.Texts, o.Columns.index(t.header()), row)
		if err != nil {
			w.abort()
			return err
		}
		cells := make([]any, 0, len(header))
		for i := range plan.header {
			cells = append(cells, cell(row, i))
		}
		if err := w.write(append(cells, results...)); err != nil {
			w.abort()
			return err
		}
	}
	return w.commit()
}

// changedNotRun is the error column of a row whose request changed since
// its last result and which this run did not reach.
const changedNotRun = "not run: the request changed since its last result, which answered the old one"

// rowResults are a row's result cells: its latest result, unless that
// answered another request than the row now makes.
func rowResults(j *journal, texts Texts, idx columnIndex, row Row) ([]any, error) {
	id := strings.TrimSpace(cell(row, idx.id))
	if j.state(id, idx.hash(row)) == rowChanged {
		cells := texts.resultCells(nil)
		cells[len(cells)-1] = changedNotRun
		return cells, nil
	}
	rec, err := j.lookup(id)
	if err != nil {
		return nil, err
	}
	return texts.resultCells(rec), nil
}

func cell(r Row, i int) string {
	if i < 0 || i >= len(r.Cells) {
		return ""
	}
	return r.Cells[i]
}
