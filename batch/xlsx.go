package batch

import (
	"fmt"
	"io"

	"github.com/xuri/excelize/v2"
)

// xlsxReader reads the first sheet of a workbook.
type xlsxReader struct {
	path string
	file *excelize.File
	rows *excelize.Rows
	head []string
	line int
}

func newXLSXReader(path string, src io.ReadCloser) (*xlsxReader, error) {
	f, err := excelize.OpenReader(src)
	src.Close() // the workbook is read whole
	if err != nil {
		if f != nil {
			f.Close()
		}
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
	head, err := rows.Columns()
	if err != nil {
		r.close()
		return nil, fmt.Errorf("%s row 1: %w", path, err)
	}
	if r.head, err = columnNames(path, 1, head); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

func (r *xlsxReader) header() []string { return r.head }

func (r *xlsxReader) next() (Row, error) {
	for r.rows.Next() {
		r.line++
		// A row numbered past a workbook's last row would have the
		// rows before it walked one by one.
		if r.line > excelize.TotalRows {
			return Row{}, fmt.Errorf("%s: a row past row %d, the last a workbook can have", r.path, excelize.TotalRows)
		}
		cells, err := r.rows.Columns()
		if err != nil {
			return Row{}, fmt.Errorf("%s row %d: %w", r.path, r.line, err)
		}
		if blank(cells) {
			continue
		}
		if cells, err = fitRow(r.path, r.line, cells, len(r.head)); err != nil {
			return Row{}, err
		}
		return Row{Line: r.line, Cells: cells}, nil
	}
	if err := r.rows.Error(); err != nil {
		return Row{}, fmt.Errorf("%s row %d: %w", r.path, r.line+1, err)
	}
	return Row{}, io.EOF
}

func (r *xlsxReader) close() error {
	r.rows.Close()
	return r.file.Close()
}
