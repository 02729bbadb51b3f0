package batch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// echoHandler is a test double of the turn handler: it answers with the
// request reversed in case, fails on "boom", and counts its calls.
type echoHandler struct {
	calls atomic.Int32
	delay time.Duration
	// cancelAfter cancels the run after this many calls (a Ctrl-C).
	cancelAfter int32
	cancel      context.CancelFunc
}

func (h *echoHandler) Run(ctx context.Context, t agent.Turn) (contracts.StructuredResult, error) {
	n := h.calls.Add(1)
	if h.cancelAfter > 0 && n > h.cancelAfter {
		h.cancel()
		<-ctx.Done()
		return contracts.StructuredResult{}, ctx.Err()
	}
	if h.delay > 0 {
		time.Sleep(h.delay)
	}
	if strings.TrimSpace(t.Message) == "" {
		return contracts.StructuredResult{}, errors.New("message: must not be empty")
	}
	if strings.Contains(t.Message, "boom") {
		return contracts.StructuredResult{}, errors.New("model unavailable")
	}
	return contracts.StructuredResult{SessionID: t.SessionID, Action: contracts.ActionNormal, Answer: "answer to " + t.Message,
		Plan:       &contracts.SGRPlan{SpamScore: 0.1, UserIntent: "intent of " + t.SessionID},
		Verdict:    &contracts.Verdict{Verdict: contracts.VerdictPass},
		Moderation: &contracts.Moderation{Level: contracts.LevelSafe},
		QueryTraces: []contracts.QueryTrace{{Query: "q", Confidence: contracts.RetrievalConfidence{MeanTopK: 0.5},
			Articles: []contracts.Article{{KBID: "a", Title: "A", Score: 0.8, Chunks: []contracts.Chunk{{ID: "a#1", Text: "text", Score: 0.8}}}}}},
		Articles: []contracts.Article{{KBID: "a", Title: "A", Score: 0.8, Chunks: []contracts.Chunk{{ID: "a#1", Text: "text", Score: 0.8}}}},
	}, nil
}

func write(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	return p
}

func readAll(t *testing.T, path string) ([]string, []Row) {
	t.Helper()
	r, err := openTable(path)
	require.NoError(t, err)
	defer r.close()
	var rows []Row
	for {
		row, err := r.next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		rows = append(rows, row)
	}
	return r.header(), rows
}

func TestReadTables(t *testing.T) {
	tests := []struct {
		name, file, body string
		header           []string
		cells            [][]string
		lines            []int
	}{
		{"csv with a BOM and semicolons", "a.csv", "\xEF\xBB\xBFID;Название;Описание\n1;Тема;\"<p>a; b</p>\"\n2;x\n",
			[]string{"ID", "Название", "Описание"}, [][]string{{"1", "Тема", "<p>a; b</p>"}, {"2", "x", ""}}, []int{2, 3}},
		{"csv with commas", "b.csv", "ID,Название,Описание\n7,\"a, b\",c\n", []string{"ID", "Название", "Описание"}, [][]string{{"7", "a, b", "c"}}, []int{2}},
		{"jsonl with a BOM", "d.jsonl", "\xEF\xBB\xBF{\"ID\":\"1\"}\n", []string{"ID"}, [][]string{{"1"}}, []int{1}},
		{"spaces around column names are dropped", "e.csv", " ID , Название \n1,a\n", []string{"ID", "Название"}, [][]string{{"1", "a"}}, []int{2}},
		{"jsonl keeps key order and other values as JSON", "c.jsonl", "{\"ID\": 1, \"Название\": \"s\", \"Описание\": null}\n\n{\"ID\": \"2\", \"Описание\": \"<b>d</b>\", \"extra\": [1]}\n",
			[]string{"ID", "Название", "Описание", "extra"}, [][]string{{"1", "s", ""}, {"2", "", "<b>d</b>", "[1]"}}, []int{1, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			header, rows := readAll(t, write(t, tc.file, tc.body))
			assert.Equal(t, tc.header, header)
			require.Len(t, rows, len(tc.cells))
			for i, r := range rows {
				assert.Equal(t, tc.cells[i], r.Cells)
				assert.Equal(t, tc.lines[i], r.Line)
			}
		})
	}
	t.Run("xlsx skips blank rows", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "b.xlsx")
		f := excelize.NewFile()
		require.NoError(t, f.SetSheetRow("Sheet1", "A1", &[]any{"ID", "Название"}))
		require.NoError(t, f.SetSheetRow("Sheet1", "A2", &[]any{"1", "a"}))
		require.NoError(t, f.SetSheetRow("Sheet1", "A4", &[]any{"2", "b"})) // row 3 is blank
		require.NoError(t, f.SetCellValue("Sheet1", "A6", ""))              // formatted, empty
		require.NoError(t, f.SaveAs(p))
		_, rows := readAll(t, p)
		require.Len(t, rows, 2)
		assert.Equal(t, 4, rows[1].Line, "rows keep their spreadsheet numbers")
	})
	t.Run("xlsx from the example generator", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "t.xlsx")
		require.NoError(t, WriteExample(p, 12))
		header, rows := readAll(t, p)
		assert.Equal(t, []string{"ID", "Название", "Описание"}, header)
		require.Len(t, rows, 12)
		assert.Equal(t, "1000", rows[0].Cells[0])
		assert.Equal(t, 2, rows[0].Line)
		assert.Equal(t, []string{"1008", "", ""}, rows[8].Cells, "an empty row keeps its place")
	})
}

func TestScanFindsStructuralProblems(t *testing.T) {
	tests := []struct {
		name, file, body, want string
	}{
		{"missing column", "a.csv", "ID,Subject\n1,x\n", `a.csv: column "Название" (the subject column) is missing; the columns are: ID, Subject`},
		{"duplicate ID", "b.csv", "ID,Название,Описание\n1,a,b\n2,c,d\n1,e,f\n", `b.csv row 4, column "ID": "1" repeats row 2; IDs must be unique`},
		{"empty ID", "c.csv", "ID,Название,Описание\n1,a,b\n ,c,d\n", `c.csv row 3, column "ID": empty`},
		{"more cells than columns", "d.csv", "ID,Название,Описание\n1,a,b,c\n", "d.csv row 2: 4 cells, but the header names 3 columns"},
		{"an output table as input", "e.csv", "ID,Название,Описание,answer\n1,a,b,c\n", `e.csv: column "answer" is already there`},
		{"not a table format", "f.txt", "ID\n", `f.txt: ".txt" is not a table format`},
		{"broken CSV", "g.csv", "ID,Название,Описание\n1,\"a,b\n", "g.csv: parse error on line 2"},
		{"broken JSONL", "h.jsonl", "{\"ID\":\"1\",\"Название\":\"a\",\"Описание\":\"b\"}\n[1,2]\n", "h.jsonl line 2: not a JSON object"},
		{"not a workbook", "i.xlsx", "plain text", "i.xlsx: "},
		{"an empty file", "j.csv", "", "j.csv: the file is empty"},
		{"not UTF-8", "k.csv", "ID,Subject,Text\n1,\xcf\xf0\xe8\xe2\xe5\xf2,x\n", `k.csv line 2: not UTF-8 text; save the table as "CSV UTF-8"`},
		{"a column named twice", "l.csv", "ID,Название,Описание,ID\n1,a,b,c\n", `l.csv: column "ID" appears twice`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &echoHandler{}
			_, err := Run(context.Background(), h, Options{Input: write(t, tc.file, tc.body)})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Zero(t, h.calls.Load(), "nothing runs before the structure is sound")
		})
	}
}

func TestRequest(t *testing.T) {
	for _, tc := range []struct{ subject, description, want string }{
		{"Тема", "<p>Как <b>настроить</b> режим?</p><ul><li>один</li></ul>", "# Тема\n\nКак **настроить** режим?\n\n- один"},
		{"Subject only", "", "# Subject only"},
		{"", "plain text", "plain text"},
		{" ", " ", ""},
	} {
		got, err := request(tc.subject, tc.description)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
	}
}

const tickets = "ID,Название,Описание\n1,First,<p>one</p>\n2,Second,two\n3,,\n4,Fourth,boom\n5,Fifth,five\n"

func TestRunWritesEveryRowInOrder(t *testing.T) {
	for _, out := range []string{"out.csv", "out.jsonl", "out.xlsx"} {
		t.Run(out, func(t *testing.T) {
			in := write(t, "t.csv", tickets)
			o := Options{Input: in, Output: filepath.Join(filepath.Dir(in), out), Concurrency: 3}
			sum, err := Run(context.Background(), &echoHandler{delay: time.Millisecond}, o)
			require.NoError(t, err)
			assert.Equal(t, Summary{Output: o.Output, Results: strings.TrimSuffix(o.Output, filepath.Ext(out)) + ".results.jsonl",
				Rows: 5, Done: 3, Failed: 2, Actions: map[string]int{"normal": 3}, Verdicts: map[string]int{"PASS": 3},
				MeanMS: sum.MeanMS, P95MS: sum.P95MS}, sum)
			header, rows := readAll(t, o.Output)
			assert.Equal(t, append([]string{"ID", "Название", "Описание"}, ResultColumns("en")...), header)
			require.Len(t, rows, 5)
			col := func(r Row, name string) string {
				for i, h := range header {
					if h == name {
						return r.Cells[i]
					}
				}
				return "?"
			}
			for i, id := range []string{"1", "2", "3", "4", "5"} {
				assert.Equal(t, id, rows[i].Cells[0], "input order")
			}
			assert.Equal(t, "answer to # First\n\none", col(rows[0], "answer"))
			assert.Equal(t, "<p>one</p>", col(rows[0], "Описание"), "original cells are kept as they were")
			assert.Equal(t, "message: must not be empty", col(rows[2], "error"))
			assert.Equal(t, "model unavailable", col(rows[3], "error"))
			assert.Contains(t, col(rows[1], "articles"), "Query 1: q\n- a - A (score 0.8000)")
			assert.Contains(t, col(rows[1], "found_chunks"), "- a:\n   - [a#1] (score 0.8000) text")
			assert.Equal(t, "0.1", col(rows[1], "spam_score"))
			assert.Equal(t, "0.5", col(rows[1], "retrieval_confidence"))
			assert.Equal(t, "1", col(rows[1], "query_count"))
			assert.Equal(t, "intent of batch-2", col(rows[1], "user_intent"))
			assert.Equal(t, "PASS", col(rows[1], "verdict"))
			assert.Equal(t, "Safe", col(rows[1], "safety_level"))

			lines := strings.Split(strings.TrimSpace(readFile(t, sum.Results)), "\n")
			require.Len(t, lines, 5, "one result line per row, in the order they finished")
			byID := map[string]Record{}
			for _, l := range lines {
				var rec Record
				require.NoError(t, json.Unmarshal([]byte(l), &rec))
				byID[rec.ID] = rec
			}
			assert.Equal(t, "answer to # Second\n\ntwo", byID["2"].Result.Answer)
		})
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}

func TestResumeSkipsWhatIsDone(t *testing.T) {
	in := write(t, "t.csv", tickets)
	ctx, cancel := context.WithCancel(context.Background())
	first := &echoHandler{cancelAfter: 2, cancel: cancel}
	sum, err := Run(ctx, first, Options{Input: in, Concurrency: 1})
	require.NoError(t, err)
	assert.True(t, sum.Interrupted)
	assert.Equal(t, 2, sum.Done+sum.Failed, "the rows finished before the interrupt are kept")
	assert.Equal(t, 3, sum.NotRun)
	_, rows := readAll(t, sum.Output)
	require.Len(t, rows, 5, "an interrupted run still writes every row")

	second := &echoHandler{}
	sum, err = Run(context.Background(), second, Options{Input: in, Concurrency: 2})
	require.NoError(t, err)
	assert.Equal(t, 2, sum.Skipped, "done rows are not run again")
	assert.Equal(t, int32(3), second.calls.Load())
	assert.Equal(t, 2, sum.Failed)

	third := &echoHandler{}
	sum, err = Run(context.Background(), third, Options{Input: in})
	require.NoError(t, err)
	assert.Equal(t, int32(2), third.calls.Load(), "failed rows are tried again, finished ones never")
	assert.Equal(t, 3, sum.Skipped)
}

func TestStartAndLimit(t *testing.T) {
	in := write(t, "t.csv", tickets)
	h := &echoHandler{}
	sum, err := Run(context.Background(), h, Options{Input: in, Start: 2, Limit: 2})
	require.NoError(t, err)
	assert.Equal(t, int32(2), h.calls.Load())
	assert.Equal(t, 3, sum.NotRun)
	_, rows := readAll(t, sum.Output)
	assert.Equal(t, "", rows[0].Cells[len(rows[0].Cells)-3], "a row outside the range has empty results")
}

func TestXLSXCellsAreCutToTheLimitVisibly(t *testing.T) {
	p := filepath.Join(t.TempDir(), "o.xlsx")
	w, err := createTable(p, []string{"answer"}, false)
	require.NoError(t, err)
	require.NoError(t, w.write([]any{strings.Repeat("я", 40_000)}))
	require.NoError(t, w.commit())
	_, rows := readAll(t, p)
	got := rows[0].Cells[0]
	assert.Equal(t, excelize.TotalCellChars, len([]rune(got)))
	assert.True(t, strings.HasSuffix(got, cellCut))
}

// doneLine is a results line of a row answered for the request ("s", "a").
func doneLine() string {
	return `{"id":"1","line":2,"request":"# s\n\na","request_sha256":"` + requestHash("s", "a") + `","latency_ms":0}` + "\n"
}

func TestJournalDropsAnUnreadableLastLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.results.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(doneLine()+"\x00\x00\x00\n"), 0o644))
	j, err := openJournal(p)
	require.NoError(t, err)
	assert.Equal(t, rowDone, j.state("1", requestHash("s", "a")))
	require.NoError(t, j.close())
	assert.Equal(t, doneLine(), readFile(t, p), "what a crash left half written is dropped")

	require.NoError(t, os.WriteFile(p, []byte("garbage\n"+doneLine()), 0o644))
	_, err = openJournal(p)
	assert.ErrorContains(t, err, "line at byte 0 is not a result record")
}

func TestJournalDropsACutLastLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.results.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(doneLine()+`{"id":"2","li`), 0o644))
	j, err := openJournal(p)
	require.NoError(t, err)
	assert.Equal(t, rowDone, j.state("1", requestHash("s", "a")))
	assert.Equal(t, rowNew, j.state("2", requestHash("", "")))
	require.NoError(t, j.append(Record{ID: "2", Line: 3, RequestHash: requestHash("", "")}))
	assert.Equal(t, rowDone, j.state("2", requestHash("", "")))
	require.NoError(t, j.close())
	assert.Equal(t, doneLine()+`{"id":"2","line":3,"request":"","request_sha256":"`+requestHash("", "")+`","latency_ms":0}`+"\n", readFile(t, p))
}

func TestConcurrencyIsBounded(t *testing.T) {
	var body strings.Builder
	body.WriteString("ID,Название,Описание\n")
	for i := range 40 {
		fmt.Fprintf(&body, "%d,s,d\n", i)
	}
	in := write(t, "t.csv", body.String())
	var now, peak atomic.Int32
	var mu sync.Mutex
	h := handlerFunc(func(ctx context.Context, tr agent.Turn) (contracts.StructuredResult, error) {
		n := now.Add(1)
		mu.Lock()
		peak.Store(max(peak.Load(), n))
		mu.Unlock()
		time.Sleep(2 * time.Millisecond)
		now.Add(-1)
		return contracts.StructuredResult{Action: contracts.ActionNormal}, nil
	})
	_, err := Run(context.Background(), h, Options{Input: in, Concurrency: 4})
	require.NoError(t, err)
	assert.LessOrEqual(t, peak.Load(), int32(4))
	assert.Greater(t, peak.Load(), int32(1), "the pool runs rows at once")
}

type handlerFunc func(context.Context, agent.Turn) (contracts.StructuredResult, error)

func (f handlerFunc) Run(ctx context.Context, t agent.Turn) (contracts.StructuredResult, error) {
	return f(ctx, t)
}

func TestOptions(t *testing.T) {
	in := write(t, "t.csv", tickets)
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{}, "--input: a table is needed"},
		{Options{Input: in, Output: in}, "is the input; choose another file"},
		{Options{Input: in, Concurrency: 65}, "--concurrency: 65 is outside 1..64"},
		{Options{Input: in, Start: -1}, "--start: -1 is below 1"},
		{Options{Input: in, Output: filepath.Join(t.TempDir(), "o.ods")}, `--output: `},
	} {
		_, err := Run(context.Background(), &echoHandler{}, tc.o)
		assert.ErrorContains(t, err, tc.want)
	}
}
