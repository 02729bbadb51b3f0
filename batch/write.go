package batch

import (
	"bufio"
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
	kind, err := format(path)
	if err != nil {
		return nil, err
	}
	tmp := filepath.Join(filepath.Dir(path), ".tmp-"+filepath.Base(path)) // the extension stays: excelize saves by it
	if kind != "xlsx" {
		w, err := newTextWriter(kind, path, tmp, header, withBOM)
		if err != nil {
			return nil, err // not a typed nil in the interface
		}
		return w, nil
	}
	w, err := newXLSXWriter(path, tmp)
	if err != nil {
		return nil, err
	}
	cells := make([]any, len(header))
	for i, h := range header {
		cells[i] = h
	}
	if err := w.write(cells); err != nil {
		w.abort()
		return nil, err
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
	// excelize creates the file executable (os.ModePerm): a workbook is
	// read and written, as the CSV and JSONL files are.
	if err := os.Chmod(w.tmp, 0o644); err != nil {
		return fmt.Errorf("%s: %w", w.path, err)
	}
	return os.Rename(w.tmp, w.path)
}

func (w *xlsxWriter) abort() {
	w.file.Close()
	os.Remove(w.tmp)
}

// textWriter is a table written as text, CSV or JSONL, to a buffered
// temporary file.
type textWriter struct {
	path, tmp string
	file      *os.File
	enc       encoder
}

func newTextWriter(kind, path, tmp string, header []string, withBOM bool) (*textWriter, error) {
	f, err := os.Create(tmp)
	if err != nil {
		return nil, err
	}
	w := &textWriter{path: path, tmp: tmp, file: f}
	if w.enc, err = newEncoder(kind, bufio.NewWriter(f), header, withBOM); err != nil {
		w.abort()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return w, nil
}

func (w *textWriter) write(cells []any) error {
	if err := w.enc.encode(cells); err != nil {
		return fmt.Errorf("%s: %w", w.path, err)
	}
	return nil
}

func (w *textWriter) commit() error {
	if err := w.enc.flush(); err != nil {
		w.abort()
		return fmt.Errorf("%s: %w", w.path, err)
	}
	if err := w.file.Close(); err != nil {
		return fmt.Errorf("%s: %w", w.path, err)
	}
	return os.Rename(w.tmp, w.path)
}

func (w *textWriter) abort() {
	w.file.Close()
	os.Remove(w.tmp)
}
