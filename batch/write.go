package batch

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// writer writes a table row by row to a temporary file beside its path
// and puts it in place on commit, so a reader never sees half a table.
type writer interface {
	write(cells []any) error
	commit() error
	abort()
}

func createTable(path string, header []string, withBOM bool) (writer, error) {
	f, err := format(path)
	if err != nil {
		return nil, err
	}
	tmp := filepath.Join(filepath.Dir(path), ".tmp-"+filepath.Base(path)) // the extension stays: excelize saves by it
	var w writer
	switch f {
	case "xlsx":
		w, err = newXLSXWriter(path, tmp)
	case "csv":
		w, err = newCSVWriter(path, tmp, withBOM)
	default:
		w, err = newJSONLWriter(path, tmp, header)
	}
	if err != nil {
		return nil, err
	}
	if f != "jsonl" {
		cells := make([]any, len(header))
		for i, h := range header {
			cells[i] = h
		}
		if err := w.write(cells); err != nil {
			w.abort()
			return nil, err
		}
	}
	return w, nil
}

// xlsxWriter streams rows into a workbook: excelize keeps them in a
// temporary file, not in memory.
type xlsxWriter struct {
	path, tmp string
	file      *excelize.File
	sheet     *excelize.StreamWriter
	row       int
}

func newXLSXWriter(path, tmp string) (*xlsxWriter, error) {
	f := excelize.NewFile()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &xlsxWriter{path: path, tmp: tmp, file: f, sheet: sw}, nil
}

// cellCut marks a value cut to fit a workbook cell; the results file
// keeps it whole.
const cellCut = " … [cut: the whole value is in the results file]"

func (w *xlsxWriter) write(cells []any) error {
	for i, c := range cells {
		if s, ok := c.(string); ok && utf8.RuneCountInString(s) > excelize.TotalCellChars {
			cells[i] = string([]rune(s)[:excelize.TotalCellChars-utf8.RuneCountInString(cellCut)]) + cellCut
		}
	}
	w.row++
	cell, err := excelize.CoordinatesToCellName(1, w.row)
	if err != nil {
		return err
	}
	if err := w.sheet.SetRow(cell, cells); err != nil {
		return fmt.Errorf("%s row %d: %w", w.path, w.row, err)
	}
	return nil
}

func (w *xlsxWriter) commit() error {
	defer w.file.Close()
	if err := w.sheet.Flush(); err != nil {
		return fmt.Errorf("%s: %w", w.path, err)
	}
	if err := w.file.SaveAs(w.tmp); err != nil {
		return fmt.Errorf("%s: %w", w.path, err)
	}
	return os.Rename(w.tmp, w.path)
}

func (w *xlsxWriter) abort() {
	w.file.Close()
	os.Remove(w.tmp)
}

// textFile is a table written as text through a buffer: CSV and JSONL.
type textFile struct {
	path, tmp string
	file      *os.File
	buf       *bufio.Writer
}

func newTextFile(path, tmp string) (textFile, error) {
	f, err := os.Create(tmp)
	if err != nil {
		return textFile{}, err
	}
	return textFile{path: path, tmp: tmp, file: f, buf: bufio.NewWriter(f)}, nil
}

func (w textFile) commit() error {
	if err := w.buf.Flush(); err != nil {
		w.abort()
		return fmt.Errorf("%s: %w", w.path, err)
	}
	if err := w.file.Close(); err != nil {
		return fmt.Errorf("%s: %w", w.path, err)
	}
	return os.Rename(w.tmp, w.path)
}

func (w textFile) abort() {
	w.file.Close()
	os.Remove(w.tmp)
}

type csvWriter struct {
	textFile
	csv *csv.Writer
}

func newCSVWriter(path, tmp string, withBOM bool) (*csvWriter, error) {
	f, err := newTextFile(path, tmp)
	if err != nil {
		return nil, err
	}
	if withBOM {
		_, _ = f.buf.Write(bom)
	}
	return &csvWriter{textFile: f, csv: csv.NewWriter(f.buf)}, nil
}

func (w *csvWriter) write(cells []any) error {
	rec := make([]string, len(cells))
	for i, c := range cells {
		rec[i] = text(c)
	}
	return w.csv.Write(rec)
}

func (w *csvWriter) commit() error {
	w.csv.Flush()
	if err := w.csv.Error(); err != nil {
		w.abort()
		return fmt.Errorf("%s: %w", w.path, err)
	}
	return w.textFile.commit()
}

// jsonlWriter writes each row as an object with the columns in order.
type jsonlWriter struct {
	textFile
	header []string
}

func newJSONLWriter(path, tmp string, header []string) (*jsonlWriter, error) {
	f, err := newTextFile(path, tmp)
	if err != nil {
		return nil, err
	}
	return &jsonlWriter{textFile: f, header: header}, nil
}

func (w *jsonlWriter) write(cells []any) error {
	w.buf.WriteByte('{')
	for i, h := range w.header {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		k, _ := json.Marshal(h)
		var v any
		if i < len(cells) {
			v = cells[i]
		}
		val, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("%s: column %q: %w", w.path, h, err)
		}
		w.buf.Write(k)
		w.buf.WriteByte(':')
		w.buf.Write(val)
	}
	w.buf.WriteString("}\n")
	return nil
}

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
