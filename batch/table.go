package batch

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Row is one data row of a table.
type Row struct {
	// Line is where the row is: the spreadsheet row number, or the line of
	// a CSV or JSONL file (the header is line 1 of a spreadsheet or CSV).
	Line int
	// Cells holds one value per header column.
	Cells []string
}

// reader reads a table row by row, so a large input is never held whole.
// Every reader keeps the same shape: column names trimmed and unique, each
// row one cell per column, rows with no value at all skipped.
type reader interface {
	header() []string
	next() (Row, error) // io.EOF after the last row
	close() error
}

// format names a table format by the file's extension.
func format(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".xlsx", ".csv", ".jsonl":
		return ext[1:], nil
	default:
		return "", fmt.Errorf("%s: %q is not a table format sgrgraph reads (.xlsx, .csv, .jsonl)", path, ext)
	}
}

func openTable(path string) (reader, error) {
	kind, err := format(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return newReader(kind, path, f)
}

// newReader reads a table of the given format from src, which it closes;
// path names the table in errors.
func newReader(kind, path string, src io.ReadCloser) (reader, error) {
	var r reader
	var err error
	switch kind {
	case "xlsx":
		r, err = newXLSXReader(path, src)
	case "csv":
		r, err = newCSVReader(path, src)
	default:
		r, err = newJSONLReader(path, src)
	}
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return r, nil
}

// columnNames makes a header row into column names: each trimmed, the
// empty ones at its end dropped (a spreadsheet's formatted cells, a CSV
// line's trailing separators). What is left must name at least one column,
// each once.
func columnNames(path string, line int, header []string) ([]string, error) {
	names := make([]string, len(header))
	for i, h := range header {
		names[i] = strings.TrimSpace(h)
	}
	for len(names) > 0 && names[len(names)-1] == "" {
		names = names[:len(names)-1]
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s row %d: no column is named; the first row must name the columns", path, line)
	}
	seen := make(map[string]int, len(names))
	for i, n := range names {
		first, dup := seen[n]
		switch {
		case dup && n == "":
			return nil, fmt.Errorf("%s row %d: columns %d and %d have no name; name them", path, line, first+1, i+1)
		case dup:
			return nil, fmt.Errorf("%s: column %q appears twice; column names must be unique", path, n)
		}
		seen[n] = i
	}
	return names, nil
}

// fitRow makes a row's cells one per column: a spreadsheet leaves out the
// empty cells at a row's end, a CSV line may end in separators. A value
// beyond the last named column is an error naming the row.
func fitRow(path string, line int, cells []string, columns int) ([]string, error) {
	last := len(cells)
	for last > columns && strings.TrimSpace(cells[last-1]) == "" {
		last--
	}
	if last > columns {
		return nil, fmt.Errorf("%s row %d: %d cells, but the header names %d columns; name the extra columns or remove them",
			path, line, last, columns)
	}
	return append(cells[:last:last], make([]string, columns-last)...), nil
}

// blank reports a row with no value: skipped, as a CSV or JSONL reader
// skips a blank line (a spreadsheet has them between blocks, or formatted
// but empty at its end).
func blank(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func validUTF8(cells []string) bool {
	for _, c := range cells {
		if !utf8.ValidString(c) {
			return false
		}
	}
	return true
}
