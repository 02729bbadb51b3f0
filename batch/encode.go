package batch

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
)

// encoder turns rows into a text table's bytes: CSV or JSONL.
type encoder interface {
	encode(cells []any) error
	flush() error
}

// newEncoder starts a text table on out: the BOM and the header line of a
// CSV table; a JSONL table names the columns in every object.
func newEncoder(kind string, out *bufio.Writer, header []string, withBOM bool) (encoder, error) {
	if kind == "jsonl" {
		return &jsonlEncoder{out: out, header: header}, nil
	}
	if withBOM {
		out.Write(bom)
	}
	// Every name is quoted, so that a reader that guesses the separator
	// from the header line (this package's does) counts no ";" of a name.
	for i, h := range header {
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString(`"` + strings.ReplaceAll(h, `"`, `""`) + `"`)
	}
	if err := out.WriteByte('\n'); err != nil {
		return nil, err
	}
	return &csvEncoder{out: out, csv: csv.NewWriter(out)}, nil
}

type csvEncoder struct {
	out *bufio.Writer
	csv *csv.Writer
}

func (e *csvEncoder) encode(cells []any) error {
	rec := make([]string, len(cells))
	for i, c := range cells {
		rec[i] = text(c)
	}
	return e.csv.Write(rec)
}

func (e *csvEncoder) flush() error {
	e.csv.Flush()
	if err := e.csv.Error(); err != nil {
		return err
	}
	return e.out.Flush()
}

// jsonlEncoder writes each row as an object with the columns in order.
type jsonlEncoder struct {
	out    *bufio.Writer
	header []string
}

func (e *jsonlEncoder) encode(cells []any) error {
	e.out.WriteByte('{')
	for i, h := range e.header {
		if i > 0 {
			e.out.WriteByte(',')
		}
		k, _ := json.Marshal(h)
		var v any
		if i < len(cells) {
			v = cells[i]
		}
		val, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("column %q: %w", h, err)
		}
		e.out.Write(k)
		e.out.WriteByte(':')
		e.out.Write(val)
	}
	_, err := e.out.WriteString("}\n")
	return err
}

func (e *jsonlEncoder) flush() error { return e.out.Flush() }

func text(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case float64:
		return fmt.Sprintf("%g", t)
	}
	return fmt.Sprint(v)
}
