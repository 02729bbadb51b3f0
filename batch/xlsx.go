package batch

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/xuri/excelize/v2"
)

// A workbook is uploaded by whoever makes the table, and excelize trusts
// it: it reads the file whole, unzips every part into a buffer of the size
// the zip declares (a damaged size field asks for gigabytes; one past
// 2^63 panics), decodes the shared strings and styles into structures many
// times their size, and pads each row with an empty cell per column up to
// its last cell. These limits keep reading any workbook to a few seconds
// and a few hundred megabytes; each is checked before excelize sees the
// file, or as the rows are read, and named in the error. A table past them
// reads as CSV or JSONL, which are streamed.
const (
	// xlsxMaxUnzipped bounds the workbook: the file, and all its parts
	// unzipped. A worksheet of this size reads in about 6 s at worst
	// (11 MB/s of densely packed cells); the example generator's table
	// fits 220,000 rows.
	xlsxMaxUnzipped = 64 << 20
	// xlsxMaxOther bounds all the parts but the worksheets, together:
	// shared strings, styles, the workbook, pictures. excelize keeps them
	// in memory. It is also the size past which excelize streams a
	// worksheet from a temporary file instead of memory (its default).
	xlsxMaxOther = 16 << 20
	// xlsxMaxTags bounds the XML tags ('<') in those parts: excelize
	// decodes each tag of the shared strings or styles into as much as
	// 400 bytes and 3 µs. A string takes four tags or more, so the shared
	// strings of a table reach 16 MiB first unless its strings average
	// under 50 bytes.
	xlsxMaxTags = 1 << 20
	// xlsxMaxParts bounds the files in the zip: a workbook has a few
	// dozen, and each costs memory before any limit above is checked.
	xlsxMaxParts = 10_000
	// xlsxMaxCells bounds the cells read from the sheet, the empty ones
	// before each row's last cell included: a cell far to the right makes
	// excelize pad its row with up to 16,383 empty ones, 20 ns each. A
	// sheet within the size limit has at most a few million cells with
	// something in them: only padding reaches this.
	xlsxMaxCells = 16 << 20
)

// oleSignature starts a compound file: a password-protected workbook, or
// an old .xls. excelize would try to decrypt it, trusting its sizes too.
var oleSignature = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// xlsxReader reads the first sheet of a workbook.
type xlsxReader struct {
	path  string
	file  *excelize.File
	rows  *excelize.Rows
	head  []string
	line  int
	cells int // read so far, padding included
}

func newXLSXReader(path string, src io.ReadCloser) (*xlsxReader, error) {
	data, err := io.ReadAll(io.LimitReader(src, xlsxMaxUnzipped+1))
	src.Close() // the workbook is read whole
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := checkWorkbook(data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{
		UnzipSizeLimit: xlsxMaxUnzipped, UnzipXMLSizeLimit: xlsxMaxOther,
	})
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
	head, err := r.columns()
	if err != nil {
		r.close()
		return nil, err
	}
	if r.head, err = columnNames(path, 1, head); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// checkWorkbook refuses, before excelize opens it, a file that is not a
// zip or would take more than the limits above to open: the sizes checked
// are those the zip declares, which bound what unzipping may produce.
func checkWorkbook(data []byte) error {
	const advice = "save the table as CSV UTF-8, or split it"
	switch {
	case len(data) > xlsxMaxUnzipped:
		return fmt.Errorf("the file is over %d MiB, the most read from an .xlsx table; %s", xlsxMaxUnzipped>>20, advice)
	case bytes.HasPrefix(data, oleSignature):
		return errors.New("not an .xlsx workbook: it is password-protected, or an old .xls; save it as .xlsx without a password")
	case bytes.Count(data, []byte("PK\x01\x02")) > xlsxMaxParts:
		// The count of central directory signatures is at least the count
		// of parts: it is known before the zip reader builds them all.
		return fmt.Errorf("the workbook has over %d parts, the most read from an .xlsx table; copy the sheet into a new workbook", xlsxMaxParts)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return fmt.Errorf("not an .xlsx workbook: %w", err)
	}
	var all, other uint64
	var others []*zip.File
	for _, f := range zr.File {
		size := f.UncompressedSize64 // up to 2^64-1: compared before added
		if size > xlsxMaxUnzipped || all+size > xlsxMaxUnzipped {
			return fmt.Errorf("the workbook unzips to over %d MiB, the most read from an .xlsx table; %s", xlsxMaxUnzipped>>20, advice)
		}
		all += size
		// excelize's own test for a worksheet, which it may stream.
		name := strings.ToLower(strings.ReplaceAll(f.Name, `\`, "/"))
		if strings.HasPrefix(name, "xl/worksheets/sheet") {
			continue
		}
		if other += size; other > xlsxMaxOther {
			return fmt.Errorf("the workbook's parts other than its sheets (shared strings, styles, pictures) unzip to over %d MiB, the most read from an .xlsx table, %q reaching it; %s",
				xlsxMaxOther>>20, f.Name, advice)
		}
		others = append(others, f)
	}
	// Within 16 MiB, unzipping the parts again to count their tags is
	// quick; a damaged part counts as far as it unzips (excelize reads it
	// as far, too).
	tags := 0
	buf := make([]byte, 32<<10)
	for _, f := range others {
		rc, err := f.Open()
		if err != nil {
			continue
		}
		for {
			n, err := rc.Read(buf)
			if tags += bytes.Count(buf[:n], []byte("<")); tags > xlsxMaxTags {
				rc.Close()
				return fmt.Errorf("the workbook's parts other than its sheets (shared strings, styles) hold over %d XML tags, the most read from an .xlsx table, %q reaching it; %s",
					xlsxMaxTags, f.Name, advice)
			}
			if err != nil {
				break
			}
		}
		rc.Close()
	}
	return nil
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
		cells, err := r.columns()
		if err != nil {
			return Row{}, err
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

// columns reads the current row's cells, within the sheet's cell limit
// and a row's text limit (a JSONL line's).
func (r *xlsxReader) columns() ([]string, error) {
	cells, err := r.rows.Columns()
	if err != nil {
		return nil, fmt.Errorf("%s row %d: %w", r.path, r.line, err)
	}
	if r.cells += len(cells); r.cells > xlsxMaxCells {
		return nil, fmt.Errorf("%s row %d: the sheet has over %d cells up to here (the empty ones before a row's last cell count), the most read from an .xlsx table; delete the columns right of the table, or save it as CSV UTF-8",
			r.path, r.line, xlsxMaxCells)
	}
	text := 0
	for _, c := range cells {
		text += len(c)
	}
	if text > maxLine {
		return nil, fmt.Errorf("%s row %d: over %d MiB of text, the most a row may hold", r.path, r.line, maxLine>>20)
	}
	return cells, nil
}

func (r *xlsxReader) close() error {
	r.rows.Close()
	return r.file.Close()
}
