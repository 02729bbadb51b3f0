package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// requestHash identifies what a row asks: the cells its turn's request is
// made of, in order (the subject, the description). The ID is not among
// them: it names the row, and results are kept under it. A row whose
// cells hash otherwise than its result's asks something else, and runs
// again.
func requestHash(cells ...string) string {
	h := sha256.New()
	for _, c := range cells {
		// Each cell behind its length: ("ab", "c") is not ("a", "bc").
		h.Write([]byte(strconv.Itoa(len(c)) + ":" + c))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// textHash is the hash of a request's text, the one thing an earlier
// version kept to tell what a result answered.
func textHash(request string) string {
	sum := sha256.Sum256([]byte(request))
	return hex.EncodeToString(sum[:])
}

// hash is a row's request hash, read through the column index. Spaces
// around a cell are left out, as the request leaves them out. A role,
// when the table has one, is part of what a row asks: another role may
// be refused what this one was answered.
func (c columnIndex) hash(r Row) string {
	cells := []string{strings.TrimSpace(cell(r, c.subject)), strings.TrimSpace(cell(r, c.description))}
	if role := c.role(r); role != "" {
		cells = append(cells, "role="+role)
	}
	return requestHash(cells...)
}

// rowState is a row of the table set against its latest result.
type rowState int

const (
	rowNew     rowState = iota // no result yet
	rowDone                    // answered, for the same request
	rowFailed                  // failed, for the same request: tried again
	rowChanged                 // the result is for another request: run again
)

// entry is what the results file keeps in memory of a row's latest result.
type entry struct {
	offset int64
	failed bool
	hash   string // the request hash; empty in a line an earlier version wrote
	text   string // that line's textHash of its request
}

// state sets a row's request against its latest result. A result without
// a request hash matches nothing until adopt has checked it.
func (j *journal) state(id, hash string) rowState {
	e, ok := j.entries[id]
	switch {
	case !ok:
		return rowNew
	case e.hash != hash:
		return rowChanged
	case e.failed:
		return rowFailed
	}
	return rowDone
}

// unhashed reports whether the row's latest result has no request hash.
func (j *journal) unhashed(id string) bool {
	e, ok := j.entries[id]
	return ok && e.hash == ""
}

func (j *journal) anyUnhashed() bool {
	for _, e := range j.entries {
		if e.hash == "" {
			return true
		}
	}
	return false
}

// adopt checks a result an earlier version wrote, which kept the request
// text and no hash: if the row still makes that request, the result is
// written again with the row's hash, so that it is trusted from now on.
// Otherwise it stays unmatched and the row runs again.
func (j *journal) adopt(id, request, hash string) error {
	if e := j.entries[id]; e.hash != "" || e.text != textHash(request) {
		return nil
	}
	rec, err := j.lookup(id)
	if err != nil {
		return err
	}
	rec.RequestHash = hash
	if err := j.append(*rec); err != nil {
		return fmt.Errorf("rewriting the result of row %s with its request hash: %w", id, err)
	}
	return nil
}

// adoptUnhashed checks every row whose result has no request hash (see
// adopt) and says how many there were. It reads the table again only when
// the results file has such results: once, the first time a results file
// of an earlier version is resumed.
func adoptUnhashed(path string, cols Columns, j *journal) (int, error) {
	if !j.anyUnhashed() {
		return 0, nil
	}
	t, err := openTable(path)
	if err != nil {
		return 0, err
	}
	defer t.close()
	n := 0
	for {
		row, err := t.next()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		idx := cols.index(t.header())
		if id := strings.TrimSpace(cell(row, idx.id)); j.unhashed(id) {
			n++
			message, _ := idx.request(row)
			if err := j.adopt(id, message, idx.hash(row)); err != nil {
				return n, err
			}
		}
	}
}
