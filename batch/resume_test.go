package batch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// askedHandler answers like echoHandler and records which rows it was asked.
type askedHandler struct {
	echoHandler
	mu    sync.Mutex
	asked []string
}

func (h *askedHandler) Run(ctx context.Context, t agent.Turn) (contracts.StructuredResult, error) {
	h.mu.Lock()
	h.asked = append(h.asked, strings.TrimPrefix(t.SessionID, "batch-"))
	h.mu.Unlock()
	return h.echoHandler.Run(ctx, t)
}

func outputColumn(t *testing.T, path, name string) map[string]string {
	t.Helper()
	header, rows := readAll(t, path)
	col := -1
	for i, h := range header {
		if h == name {
			col = i
		}
	}
	require.GreaterOrEqual(t, col, 0, name)
	out := map[string]string{}
	for _, r := range rows {
		out[r.Cells[0]] = r.Cells[col]
	}
	return out
}

const answered = "ID,Название,Описание\n1,First,one\n2,Second,two\n3,Third,three\n"

func TestBatchRerunsAnEditedRow(t *testing.T) {
	in := write(t, "t.csv", answered)
	_, err := Run(context.Background(), &askedHandler{}, Options{Input: in})
	require.NoError(t, err)

	// Row 2 keeps its ID, its question changes; row 3's subject changes;
	// row 1 only gains spaces the request leaves out.
	require.NoError(t, os.WriteFile(in, []byte("ID,Название,Описание\n1, First ,one \n2,Second,a new question\n3,Third again,three\n"), 0o644))
	h := &askedHandler{}
	sum, err := Run(context.Background(), h, Options{Input: in, Concurrency: 2})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"2", "3"}, h.asked, "the edited rows run again, the unchanged one does not")
	assert.Equal(t, 1, sum.Skipped)
	assert.Equal(t, 2, sum.Changed)
	assert.Equal(t, 2, sum.Done)
	answers := outputColumn(t, sum.Output, "answer")
	assert.Equal(t, "answer to # First\n\none", answers["1"])
	assert.Equal(t, "answer to # Second\n\na new question", answers["2"], "the new answer replaces the old")
	assert.Equal(t, "answer to # Third again\n\nthree", answers["3"])

	third := &askedHandler{}
	sum, err = Run(context.Background(), third, Options{Input: in})
	require.NoError(t, err)
	assert.Empty(t, third.asked, "a re-run of the same table runs nothing")
	assert.Equal(t, 3, sum.Skipped)
	assert.Zero(t, sum.Changed)
}

func TestBatchShowsNoStaleAnswerForAnEditedRowNotRun(t *testing.T) {
	in := write(t, "t.csv", answered)
	_, err := Run(context.Background(), &askedHandler{}, Options{Input: in})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(in, []byte(strings.Replace(answered, "3,Third,three", "3,Third,edited", 1)), 0o644))

	h := &askedHandler{}
	sum, err := Run(context.Background(), h, Options{Input: in, Limit: 2})
	require.NoError(t, err)
	assert.Empty(t, h.asked)
	assert.Equal(t, 1, sum.NotRun)
	assert.Equal(t, "", outputColumn(t, sum.Output, "answer")["3"], "the old answer is not put beside the new question")
	assert.Contains(t, outputColumn(t, sum.Output, "error")["3"], "the request changed since its last result")
	assert.Equal(t, "answer to # Second\n\ntwo", outputColumn(t, sum.Output, "answer")["2"])
}

func TestBatchChecksResultsWithoutAHashByTheirRequestText(t *testing.T) {
	in := write(t, "t.csv", answered)
	// A results file of an earlier version: no request hash in any line.
	results := filepath.Join(filepath.Dir(in), "t.out.results.jsonl")
	legacy := `{"id":"1","line":2,"request":"# First\n\none","latency_ms":1,"result":{"answer":"old answer 1"}}` + "\n" +
		`{"id":"2","line":3,"request":"# Second\n\nan older question","latency_ms":1,"result":{"answer":"old answer 2"}}` + "\n"
	require.NoError(t, os.WriteFile(results, []byte(legacy), 0o644))

	h := &askedHandler{}
	sum, err := Run(context.Background(), h, Options{Input: in})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"2", "3"}, h.asked, "a result for another question is not trusted")
	assert.Equal(t, 2, sum.Unhashed, "the summary says results without a hash were checked")
	assert.Equal(t, 1, sum.Skipped)
	assert.Equal(t, 1, sum.Changed)
	answers := outputColumn(t, sum.Output, "answer")
	assert.Equal(t, "old answer 1", answers["1"], "a result whose request text matches is kept")
	assert.Equal(t, "answer to # Second\n\ntwo", answers["2"])

	again := &askedHandler{}
	sum, err = Run(context.Background(), again, Options{Input: in})
	require.NoError(t, err)
	assert.Empty(t, again.asked)
	assert.Zero(t, sum.Unhashed, "row 1's result was written again with its hash")
	assert.Equal(t, 3, sum.Skipped)
	assert.Equal(t, "old answer 1", outputColumn(t, sum.Output, "answer")["1"])
}

func TestBatchResultsCarryTheRequestHash(t *testing.T) {
	in := write(t, "t.csv", answered)
	sum, err := Run(context.Background(), &askedHandler{}, Options{Input: in})
	require.NoError(t, err)
	j, err := openJournal(sum.Results)
	require.NoError(t, err)
	defer j.close()
	rec, err := j.lookup("2")
	require.NoError(t, err)
	assert.Equal(t, requestHash("Second", "two"), rec.RequestHash)
	assert.Len(t, rec.RequestHash, 64)
	assert.NotEqual(t, requestHash("Secon", "dtwo"), rec.RequestHash, "cells do not run into each other")
}

// A role column gives each row's turn its role, and is part of what the
// row asks: a row whose role changed runs again.
func TestRoleColumn(t *testing.T) {
	in := write(t, "t.csv", "ID,Название,Описание,role\n1,Guard,How do I configure it?,guest\n2,Batch,How do I run it?,\n")
	var mu sync.Mutex
	roles := map[string]string{}
	h := handlerFunc(func(ctx context.Context, turn agent.Turn) (contracts.StructuredResult, error) {
		mu.Lock()
		roles[turn.SessionID] = turn.Role
		mu.Unlock()
		return (&echoHandler{}).Run(ctx, turn)
	})
	cols := DefaultColumns()
	cols.Role = "role"
	sum, err := Run(context.Background(), h, Options{Input: in, Columns: cols})
	require.NoError(t, err)
	assert.Equal(t, 2, sum.Done)
	assert.Equal(t, map[string]string{"batch-1": "guest", "batch-2": ""}, roles)

	require.NoError(t, os.WriteFile(in, []byte("ID,Название,Описание,role\n1,Guard,How do I configure it?,admin\n2,Batch,How do I run it?,\n"), 0o644))
	clear(roles)
	sum, err = Run(context.Background(), h, Options{Input: in, Columns: cols})
	require.NoError(t, err)
	assert.Equal(t, 1, sum.Changed, "the row whose role changed")
	assert.Equal(t, 1, sum.Skipped)
	assert.Equal(t, map[string]string{"batch-1": "admin"}, roles)

	cols.Role = "Роль"
	_, err = Run(context.Background(), h, Options{Input: in, Columns: cols})
	assert.ErrorContains(t, err, `column "Роль" (the role column) is missing`)
}
