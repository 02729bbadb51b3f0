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
	hashes []string // each row's request hash, in the same order
	bom    bool
}

type columnIndex struct{ id, subject, description, roleAt int }

// index finds the request's columns in a header; role is -1 without a
// role column.
func (c Columns) index(header []string) columnIndex {
	role := -1
	if c.Role != "" {
		role = slices.Index(header, c.Role)
	}
	return columnIndex{slices.Index(header, c.ID), slices.Index(header, c.Subject), slices.Index(header, c.Description), role}
}

// role is a row's role: "" without a role column.
func (c columnIndex) role(r Row) string {
	if c.roleAt < 0 {
		return ""
	}
	return strings.TrimSpace(cell(r, c.roleAt))
}

// request is a row's request: the turn's message.
func (c columnIndex) request(r Row) (string, error) {
	return request(cell(r, c.subject), cell(r, c.description))
}

// scan reads the whole input once, checking its structure: the columns
// exist, no result column is already there, every row has an ID, no ID
// repeats. The readers check the rest: names unique, no cell past them.
func scan(path string, cols Columns, added []string) (tablePlan, error) {
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
		idx := cols.index(t.header())
		if idx.id < 0 {
			break // reported below with the header
		}
		id := strings.TrimSpace(cell(row, idx.id))
		if id == "" {
			return tablePlan{}, fmt.Errorf("%s row %d, column %q: empty; every row needs an ID (results are matched by it)", path, row.Line, cols.ID)
		}
		if first, dup := seen[id]; dup {
			return tablePlan{}, fmt.Errorf("%s row %d, column %q: %q repeats row %d; IDs must be unique", path, row.Line, cols.ID, id, first)
		}
		seen[id] = row.Line
		p.ids, p.hashes = append(p.ids, id), append(p.hashes, idx.hash(row))
	}
	p.header = slices.Clone(t.header())
	for _, c := range []struct{ flag, name string }{{"id", cols.ID}, {"subject", cols.Subject}, {"description", cols.Description}, {"role", cols.Role}} {
		if c.name != "" && !slices.Contains(p.header, c.name) {
			return tablePlan{}, fmt.Errorf("%s: column %q (the %s column) is missing; the columns are: %s",
				path, c.name, c.flag, strings.Join(p.header, ", "))
		}
	}
	for _, c := range added {
		if slices.Contains(p.header, c) {
			return tablePlan{}, fmt.Errorf("%s: column %q is already there, and a run adds it; rename it (is this an output table?)", path, c)
		}
	}
	return p, nil
}
