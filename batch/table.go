package batch

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
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
	f, err := format(path)
	if err != nil {
		return nil, err
	}
	switch f {
	case "xlsx":
		return openXLSX(path)
	case "csv":
		return openCSV(path)
	}
	return openJSONL(path)
}

// xlsxReader reads the first sheet of a workbook.
type xlsxReader struct {
	path string
	file *excelize.File
	rows *excelize.Rows
	head []string
	line int
}

func openXLSX(path string) (*xlsxReader, error) {
	f, err := excelize.OpenFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		f.Close()
		return nil, fmt.Errorf("%s: the workbook has no sheet", path)
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: sheet %q: %w", path, sheets[0], err)
	}
	r := &xlsxReader{path: path, file: f, rows: rows}
	if !rows.Next() {
		r.close()
		return nil, fmt.Errorf("%s: sheet %q is empty: the first row must name the columns", path, sheets[0])
	}
	r.line = 1
	if r.head, err = rows.Columns(); err != nil {
		r.close()
		return nil, fmt.Errorf("%s row 1: %w", path, err)
	}
	r.head = names(r.head)
	return r, nil
}

func (r *xlsxReader) header() []string { return r.head }

// next skips blank rows, as CSV and JSONL readers skip blank lines: a
// spreadsheet has them between blocks, or formatted but empty at its end.
func (r *xlsxReader) next() (Row, error) {
	for r.rows.Next() {
		r.line++
		cells, err := r.rows.Columns()
		if err != nil {
			return Row{}, fmt.Errorf("%s row %d: %w", r.path, r.line, err)
		}
		if !blank(cells) {
			return Row{Line: r.line, Cells: fit(cells, len(r.head))}, nil
		}
	}
	if err := r.rows.Error(); err != nil {
		return Row{}, fmt.Errorf("%s row %d: %w", r.path, r.line+1, err)
	}
	return Row{}, io.EOF
}

func blank(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func (r *xlsxReader) close() error {
	r.rows.Close()
	return r.file.Close()
}

// csvReader reads UTF-8 CSV with or without a BOM, with "," or ";" as the
// separator, whichever the header line uses more.
type csvReader struct {
	path string
	file *os.File
	csv  *csv.Reader
	head []string
	bom  bool
}

var bom = []byte{0xEF, 0xBB, 0xBF}

func openCSV(path string) (*csvReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 64<<10)
	r := &csvReader{path: path, file: f}
	if b, _ := br.Peek(3); bytes.Equal(b, bom) {
		_, _ = br.Discard(3)
		r.bom = true
	}
	first, _ := br.Peek(br.Buffered())
	if len(first) == 0 {
		first, _ = br.Peek(4096)
	}
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	r.csv = csv.NewReader(br)
	if bytes.Count(first, []byte{';'}) > bytes.Count(first, []byte{','}) {
		r.csv.Comma = ';'
	}
	r.csv.FieldsPerRecord = -1
	if r.head, err = r.csv.Read(); err != nil {
		f.Close()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: the file is empty: the first line must name the columns", path)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !validUTF8(r.head) {
		f.Close()
		return nil, fmt.Errorf("%s line 1: not UTF-8 text; save the table as \"CSV UTF-8\"", path)
	}
	r.head = names(r.head)
	return r, nil
}

func (r *csvReader) header() []string { return r.head }

func (r *csvReader) next() (Row, error) {
	cells, err := r.csv.Read()
	if errors.Is(err, io.EOF) {
		return Row{}, io.EOF
	}
	if err != nil {
		return Row{}, fmt.Errorf("%s: %w", r.path, err) // csv.ParseError names the line
	}
	line, _ := r.csv.FieldPos(0)
	if !validUTF8(cells) {
		return Row{}, fmt.Errorf("%s line %d: not UTF-8 text; save the table as \"CSV UTF-8\"", r.path, line)
	}
	return Row{Line: line, Cells: fit(cells, len(r.head))}, nil
}

func (r *csvReader) close() error { return r.file.Close() }

// jsonlReader reads one JSON object per line; the columns are the keys in
// the order they first appear, values other than strings kept as JSON.
type jsonlReader struct {
	path  string
	file  *os.File
	lines *bufio.Scanner
	head  []string
	index map[string]int
	first *Row
	line  int
}

// maxLine bounds one JSONL line (a ticket with its HTML).
const maxLine = 16 << 20

func openJSONL(path string) (*jsonlReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r := &jsonlReader{path: path, file: f, lines: bufio.NewScanner(f), index: map[string]int{}}
	r.lines.Buffer(make([]byte, 64<<10), maxLine)
	row, err := r.read()
	if errors.Is(err, io.EOF) {
		f.Close()
		return nil, fmt.Errorf("%s: the file has no object: the first line's keys name the columns", path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	r.first = &row
	return r, nil
}

// header is every key seen so far; later lines may add keys.
func (r *jsonlReader) header() []string { return r.head }

func (r *jsonlReader) next() (Row, error) {
	if r.first != nil {
		row := *r.first
		r.first = nil
		return row, nil
	}
	return r.read()
}

func (r *jsonlReader) read() (Row, error) {
	for r.lines.Scan() {
		r.line++
		text := bytes.TrimSpace(r.lines.Bytes())
		if r.line == 1 {
			text = bytes.TrimPrefix(text, bom)
		}
		if len(text) == 0 {
			continue
		}
		keys, values, err := object(text)
		if err != nil {
			return Row{}, fmt.Errorf("%s line %d: %w", r.path, r.line, err)
		}
		cells := make([]string, len(r.head))
		for i, k := range keys {
			j, ok := r.index[k]
			if !ok {
				j = len(r.head)
				r.index[k] = j
				r.head = append(r.head, k)
				cells = append(cells, "")
			}
			cells[j] = values[i]
		}
		return Row{Line: r.line, Cells: cells}, nil
	}
	if err := r.lines.Err(); err != nil {
		return Row{}, fmt.Errorf("%s line %d: %w", r.path, r.line+1, err)
	}
	return Row{}, io.EOF
}

func (r *jsonlReader) close() error { return r.file.Close() }

// object reads a JSON object's keys in order, with string values as text
// and any other value as its JSON.
func object(text []byte) ([]string, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, errors.New("not a JSON object")
	}
	var keys, values []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, fmt.Errorf("key %q: %w", key, err)
		}
		var s string
		switch {
		case json.Unmarshal(raw, &s) == nil:
		case string(raw) == "null":
		default:
			s = string(raw)
		}
		keys, values = append(keys, key), append(values, s)
	}
	return keys, values, nil
}

func validUTF8(cells []string) bool {
	for _, c := range cells {
		if !utf8.ValidString(c) {
			return false
		}
	}
	return true
}

// names are header cells as column names: spaces around them dropped.
func names(header []string) []string {
	out := make([]string, len(header))
	for i, h := range header {
		out[i] = strings.TrimSpace(h)
	}
	return out
}

// fit pads cells to n columns (a spreadsheet leaves out trailing empty
// cells); more cells than columns are kept, for the scan to report.
func fit(cells []string, n int) []string {
	if len(cells) >= n {
		return cells
	}
	return append(cells, make([]string, n-len(cells))...)
}
