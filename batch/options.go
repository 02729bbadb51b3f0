package batch

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Options are one batch run. A zero Concurrency or Start is taken as 1, so
// that the zero Options with an Input run the whole table one row at a
// time; the command line refuses a 0 typed for either (see CheckNumbers).
type Options struct {
	Input string
	// Output is the table written; empty: beside the input, named
	// <input>.out.<ext>. Its extension chooses the format.
	Output string
	// Results is the results file; empty: <output without extension>.results.jsonl.
	Results string
	// Concurrency is how many turns run at once, 1..MaxConcurrency.
	Concurrency int
	// Start is the first data row to run (1 = the first); Limit the most
	// rows to run from there (0 = all).
	Start, Limit int
	Columns      Columns
	// Texts are the words of the added columns.
	Texts Texts
	// Progress receives a progress bar (Terminal) or plain progress lines.
	Progress io.Writer
	Terminal bool
}

// Bounds of the numeric options.
const (
	MaxConcurrency = 64
	MaxExampleRows = 1_000_000
	// MaxExampleXLSXRows keeps an .xlsx example within what the reader
	// takes (xlsxMaxUnzipped): its rows unzip to about 300 bytes each.
	MaxExampleXLSXRows = 200_000
)

// numberRange is the values a numeric option takes, named by the flag that
// sets it: every numeric flag follows the same rule, a value outside its
// range is refused with the flag and the range, and 0 is inside a range
// only where it has a meaning of its own (--limit 0 runs every row).
type numberRange struct {
	flag     string
	min, max int    // max 0: no upper end
	lowest   string // what the lowest value means
}

func (r numberRange) check(v int) error {
	if r.max > 0 && (v < r.min || v > r.max) {
		return fmt.Errorf("%s: %d is outside %d..%d", r.flag, v, r.min, r.max)
	}
	if v < r.min {
		return fmt.Errorf("%s: %d is below %d (%s)", r.flag, v, r.min, r.lowest)
	}
	return nil
}

// CheckNumbers refuses a numeric option outside its range, naming the flag.
// The command line checks its flags with it as they were typed; Run checks
// them too, after taking a Go caller's zero Concurrency and Start as 1.
func (o Options) CheckNumbers() error {
	for _, n := range []struct {
		r numberRange
		v int
	}{
		{numberRange{flag: "--concurrency", min: 1, max: MaxConcurrency}, o.Concurrency},
		{numberRange{flag: "--start", min: 1, lowest: "1 is the first data row"}, o.Start},
		{numberRange{flag: "--limit", min: 0, lowest: "0 runs every row"}, o.Limit},
	} {
		if err := n.r.check(n.v); err != nil {
			return err
		}
	}
	return nil
}

func (o *Options) settle() error {
	if o.Input == "" {
		return errors.New("--input: a table is needed (.xlsx, .csv or .jsonl)")
	}
	if _, err := format(o.Input); err != nil {
		return err
	}
	if o.Output == "" {
		ext := filepath.Ext(o.Input)
		o.Output = strings.TrimSuffix(o.Input, ext) + ".out" + ext
	}
	if _, err := format(o.Output); err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	if same(o.Output, o.Input) {
		return fmt.Errorf("--output: %s is the input; choose another file", o.Output)
	}
	if o.Results == "" {
		o.Results = strings.TrimSuffix(o.Output, filepath.Ext(o.Output)) + ".results.jsonl"
	}
	if same(o.Results, o.Input) || same(o.Results, o.Output) {
		return fmt.Errorf("results file %s would overwrite a table; choose another --output", o.Results)
	}
	if o.Concurrency == 0 {
		o.Concurrency = 1
	}
	if o.Start == 0 {
		o.Start = 1
	}
	if err := o.CheckNumbers(); err != nil {
		return err
	}
	if o.Columns == (Columns{}) {
		o.Columns = DefaultColumns()
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	return o.Texts.settle()
}

func same(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}
