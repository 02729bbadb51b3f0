package batch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// Record is one finished row in the results file.
type Record struct {
	ID        string  `json:"id"`
	Line      int     `json:"line"`
	Request   string  `json:"request"`
	LatencyMS float64 `json:"latency_ms"`
	// Error is why the row has no result, or why its turn failed.
	Error  string                      `json:"error,omitempty"`
	Result *contracts.StructuredResult `json:"result,omitempty"`
}

// journal is the results file: one JSON line per finished row, appended
// and flushed as each row completes. It remembers where each row's latest
// line starts, so the output can be written from it without holding it.
type journal struct {
	path   string
	file   *os.File
	offset map[string]int64
	failed map[string]bool
	size   int64
}

// openJournal opens or creates the results file and reads what is done. A
// line cut by a crash is dropped, so appending goes on from a clean end.
func openJournal(path string) (*journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("results file: %w", err)
	}
	j := &journal{path: path, file: f, offset: map[string]int64{}, failed: map[string]bool{}}
	r := bufio.NewReaderSize(f, 1<<20)
	var pos int64
	var bad int64 = -1 // where an unreadable line starts
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			break // a last line without its newline was cut: it is dropped
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if bad >= 0 {
			f.Close()
			return nil, fmt.Errorf("%s: line at byte %d is not a result record; move the file away to start over", path, bad)
		}
		var head struct {
			ID    string `json:"id"`
			Error string `json:"error"`
		}
		if json.Unmarshal(line, &head) != nil || head.ID == "" {
			bad = pos // the last line may be one a crash left half written
			pos += int64(len(line))
			continue
		}
		j.offset[head.ID], j.failed[head.ID] = pos, head.Error != ""
		pos += int64(len(line))
	}
	if bad >= 0 {
		pos = bad
	}
	if err := f.Truncate(pos); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := f.Seek(pos, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	j.size = pos
	return j, nil
}

// done reports whether the row has a result without an error: failed rows
// are tried again on the next run.
func (j *journal) done(id string) bool {
	_, ok := j.offset[id]
	return ok && !j.failed[id]
}

// append writes one record and hands it to the operating system at once,
// so a crash of the process keeps it.
func (j *journal) append(r Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("%s: row %s: %w", j.path, r.ID, err)
	}
	b = append(b, '\n')
	if _, err := j.file.Write(b); err != nil {
		return fmt.Errorf("%s: %w", j.path, err)
	}
	j.offset[r.ID], j.failed[r.ID] = j.size, r.Error != ""
	j.size += int64(len(b))
	return nil
}

// lookup reads the latest record of a row, if there is one.
func (j *journal) lookup(id string) (*Record, error) {
	off, ok := j.offset[id]
	if !ok {
		return nil, nil
	}
	r := bufio.NewReader(io.NewSectionReader(j.file, off, j.size-off))
	line, err := r.ReadBytes('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", j.path, err)
	}
	var rec Record
	if err := json.Unmarshal(bytes.TrimSpace(line), &rec); err != nil {
		return nil, fmt.Errorf("%s: row %s: %w", j.path, id, err)
	}
	return &rec, nil
}

func (j *journal) close() error { return j.file.Close() }
