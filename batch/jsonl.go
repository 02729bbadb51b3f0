package batch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// jsonlReader reads one JSON object per line; the columns are the keys,
// trimmed, in the order they first appear; values other than strings are
// kept as JSON.
type jsonlReader struct {
	path  string
	src   io.Closer
	lines *bufio.Scanner
	head  []string
	index map[string]int
	first *Row
	line  int
}

// maxLine bounds one JSONL line (a ticket with its HTML).
const maxLine = 16 << 20

func newJSONLReader(path string, src io.ReadCloser) (*jsonlReader, error) {
	r := &jsonlReader{path: path, src: src, lines: bufio.NewScanner(src), index: map[string]int{}}
	r.lines.Buffer(make([]byte, 64<<10), maxLine)
	row, err := r.read()
	switch {
	case errors.Is(err, io.EOF) && len(r.head) == 0:
		src.Close()
		return nil, fmt.Errorf("%s: no object has a key; the objects' keys name the columns", path)
	case errors.Is(err, io.EOF): // every row blank: the columns are known, no row is
	case err != nil:
		src.Close()
		return nil, err
	default:
		r.first = &row
	}
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
		if !utf8.Valid(text) {
			return Row{}, fmt.Errorf("%s line %d: not UTF-8 text", r.path, r.line)
		}
		keys, values, err := object(text)
		if err != nil {
			return Row{}, fmt.Errorf("%s line %d: %w", r.path, r.line, err)
		}
		cells, err := r.place(keys, values)
		if err != nil {
			return Row{}, fmt.Errorf("%s line %d: %w", r.path, r.line, err)
		}
		if !blank(cells) {
			return Row{Line: r.line, Cells: cells}, nil
		}
	}
	if err := r.lines.Err(); errors.Is(err, bufio.ErrTooLong) {
		return Row{}, fmt.Errorf("%s line %d: longer than the limit of %d MiB a line", r.path, r.line+1, maxLine>>20)
	} else if err != nil {
		return Row{}, fmt.Errorf("%s line %d: %w", r.path, r.line+1, err)
	}
	return Row{}, io.EOF
}

// place puts an object's values in their columns, adding a column for
// each key not seen before.
func (r *jsonlReader) place(keys, values []string) ([]string, error) {
	cells := make([]string, len(r.head), len(r.head)+len(keys))
	given := make(map[int]bool, len(keys))
	for i, k := range keys {
		name := strings.TrimSpace(k)
		j, ok := r.index[name]
		if !ok {
			j = len(r.head)
			r.index[name] = j
			r.head = append(r.head, name)
			cells = append(cells, "")
		}
		if given[j] {
			return nil, fmt.Errorf("column %q is given twice; keys must be unique once trimmed", name)
		}
		given[j], cells[j] = true, values[i]
	}
	return cells, nil
}

func (r *jsonlReader) close() error { return r.src.Close() }

// unclosed says a line that ends inside its object is not closed. The
// decoder's own error there is io.EOF, which the reader would take for
// the end of the file, and quietly leave out every row after it.
func unclosed(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("the object is not closed")
	}
	return err
}

// object reads a JSON object's keys in order, with string values as text
// and any other value as its JSON. Anything after the object is an error:
// one line holds one object.
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
			return nil, nil, unclosed(err)
		}
		key, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, fmt.Errorf("key %q: %w", key, unclosed(err))
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
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, nil, errors.New("the object is not closed")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, nil, errors.New("text after the object; one line holds one object")
	}
	return keys, values, nil
}
