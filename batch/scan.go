package batch

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// tablePlan is what the scan learned of the input before any turn runs.
type tablePlan struct {
	header []string
	ids    []string // one per data row, in order
	bom    bool
}

type columnIndex struct{ id, subject, description int }

// index finds the request's columns in a header.
func (c Columns) index(header []string) columnIndex {
	return columnIndex{slices.Index(header, c.ID), slices.Index(header, c.Subject), slices.Index(header, c.Description)}
}

// scan reads the whole input once, checking its structure: the columns
// exist, no result column is already there, every row has an ID, no ID
// repeats, no row has more cells than the header names.
func scan(path string, cols Columns) (tablePlan, error) {
	t, err := openTable(path)
	if err != nil {
		return tablePlan{}, err
	}
	defer t.close()
	var p tablePlan
	if c, ok := t.(*csvReader); ok {
		p.bom = c.bom
	}
	seen := map[string]int{}
	for {
		row, err := t.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return tablePlan{}, err
		}
		header := t.header()
		if len(row.Cells) > len(header) {
			return tablePlan{}, fmt.Errorf("%s row %d: %d cells, but the header names %d columns; name the extra columns or remove them",
				path, row.Line, len(row.Cells), len(header))
		}
		i := slices.Index(header, cols.ID)
		if i < 0 {
			break // reported below with the header
		}
		id := strings.TrimSpace(cell(row, i))
		if id == "" {
			return tablePlan{}, fmt.Errorf("%s row %d, column %q: empty; every row needs an ID (results are matched by it)", path, row.Line, cols.ID)
		}
		if first, dup := seen[id]; dup {
			return tablePlan{}, fmt.Errorf("%s row %d, column %q: %q repeats row %d; IDs must be unique", path, row.Line, cols.ID, id, first)
		}
		seen[id] = row.Line
		p.ids = append(p.ids, id)
	}
	p.header = slices.Clone(t.header())
	for i, h := range p.header {
		if h != "" && slices.Index(p.header, h) < i {
			return tablePlan{}, fmt.Errorf("%s: column %q appears twice; column names must be unique", path, h)
		}
	}
	for _, c := range []struct{ flag, name string }{{"id", cols.ID}, {"subject", cols.Subject}, {"description", cols.Description}} {
		if !slices.Contains(p.header, c.name) {
			return tablePlan{}, fmt.Errorf("%s: column %q (the %s column) is missing; the columns are: %s",
				path, c.name, c.flag, strings.Join(p.header, ", "))
		}
	}
	for _, c := range ResultColumns {
		if slices.Contains(p.header, c) {
			return tablePlan{}, fmt.Errorf("%s: column %q is already there, and a run adds it; rename it (is this an output table?)", path, c)
		}
	}
	return p, nil
}
