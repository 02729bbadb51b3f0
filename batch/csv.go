package batch

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// csvReader reads UTF-8 CSV with or without a BOM, with "," or ";" as the
// separator, whichever the header line uses more.
type csvReader struct {
	path string
	src  io.Closer
	csv  *csv.Reader
	head []string
	bom  bool
}

var bom = []byte{0xEF, 0xBB, 0xBF}

func newCSVReader(path string, src io.ReadCloser) (*csvReader, error) {
	br := bufio.NewReaderSize(src, 64<<10)
	r := &csvReader{path: path, src: src}
	if b, _ := br.Peek(3); bytes.Equal(b, bom) {
		_, _ = br.Discard(3)
		r.bom = true
	}
	first, _ := br.Peek(br.Size())
	r.csv = csv.NewReader(br)
	r.csv.Comma = separator(first)
	r.csv.FieldsPerRecord = -1
	head, err := r.csv.Read()
	lineBreaksAsLF(head)
	if err != nil {
		src.Close()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: the file is empty: the first line must name the columns", path)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	line, _ := r.csv.FieldPos(0)
	if !validUTF8(head) {
		src.Close()
		return nil, fmt.Errorf("%s line %d: not UTF-8 text; save the table as \"CSV UTF-8\"", path, line)
	}
	if r.head, err = columnNames(path, line, head); err != nil {
		src.Close()
		return nil, err
	}
	return r, nil
}

// separator is "," or ";", whichever the header line uses more outside
// quotes: a quoted name may hold either.
func separator(text []byte) rune {
	commas, semicolons, quoted := 0, 0, false
	for _, c := range text {
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '\n':
			return pick(commas, semicolons)
		case c == ',':
			commas++
		case c == ';':
			semicolons++
		}
	}
	return pick(commas, semicolons)
}

func pick(commas, semicolons int) rune {
	if semicolons > commas {
		return ';'
	}
	return ','
}

func (r *csvReader) header() []string { return r.head }

func (r *csvReader) next() (Row, error) {
	for {
		cells, err := r.csv.Read()
		lineBreaksAsLF(cells)
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
		if blank(cells) {
			continue // a spreadsheet's blank row, saved as separators alone
		}
		if cells, err = fitRow(r.path, line, cells, len(r.head)); err != nil {
			return Row{}, err
		}
		return Row{Line: line, Cells: cells}, nil
	}
}

// lineBreaksAsLF reads every line break in a cell as LF. encoding/csv
// already reads a quoted CR LF so, but leaves a CR before it ("\r\r\n"
// reads as "\r\n"), which no CSV written back can hold: it would read as
// LF the next time, and a results file would not match its requests.
func lineBreaksAsLF(cells []string) {
	for i, c := range cells {
		if strings.Contains(c, "\r\n") {
			cells[i] = crsBeforeLF.ReplaceAllString(c, "\n")
		}
	}
}

var crsBeforeLF = regexp.MustCompile("\r+\n")

func (r *csvReader) close() error { return r.src.Close() }
