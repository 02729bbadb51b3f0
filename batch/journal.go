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
	ID      string `json:"id"`
	Line    int    `json:"line"`
	Request string `json:"request"`
	// RequestHash is the SHA-256 of the cells the request is made of (the
	// subject and the description): a re-run skips the row only while its
	// cells hash the same.
	RequestHash string  `json:"request_sha256"`
	LatencyMS   float64 `json:"latency_ms"`
	// Error is why the row has no result, or why its turn failed.
	Error  string                      `json:"error,omitempty"`
	Result *contracts.StructuredResult `json:"result,omitempty"`
}

// journal is the results file: one JSON line per finished row, appended
// and flushed as each row completes. It remembers where each row's latest
// line starts, so the output can be written from it without holding it.
type journal struct {
	path    string
	file    *os.File
	entries map[string]entry
	size    int64
}

// openJournal opens or creates the results file and reads what is done. A
// line cut by a crash is dropped, so appending goes on from a clean end.
func openJournal(path string) (*journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("results file: %w", err)
	}
	j := &journal{path: path, file: f, entries: map[string]entry{}}
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
		e, id, ok := readEntry(line, pos)
		if !ok {
			bad = pos // the last line may be one a crash left half written
			pos += int64(len(line))
			continue
		}
		j.entries[id] = e
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

// readEntry reads what is kept in memory of one results line. A line an
// earlier version wrote has no request hash: the hash of the request text
// it kept stands in, for adopt to check.
func readEntry(line []byte, offset int64) (entry, string, bool) {
	var head struct {
		ID          string          `json:"id"`
		Error       string          `json:"error"`
		Request     json.RawMessage `json:"request"` // read only when there is no hash
		RequestHash string          `json:"request_sha256"`
	}
	if json.Unmarshal(line, &head) != nil || head.ID == "" {
		return entry{}, "", false
	}
	e := entry{offset: offset, failed: head.Error != "", hash: head.RequestHash}
	var request string
	if e.hash == "" && json.Unmarshal(head.Request, &request) == nil {
		e.text = textHash(request)
	}
	return e, head.ID, true
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
	j.entries[r.ID] = entry{offset: j.size, failed: r.Error != "", hash: r.RequestHash}
	j.size += int64(len(b))
	return nil
}

// lookup reads the latest record of a row, if there is one.
func (j *journal) lookup(id string) (*Record, error) {
	e, ok := j.entries[id]
	if !ok {
		return nil, nil
	}
	r := bufio.NewReader(io.NewSectionReader(j.file, e.offset, j.size-e.offset))
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
