package batch

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
)

// readDeadline is how long reading a fuzzed table may take before the test
// calls it a hang. Inputs are a few kilobytes and read in milliseconds; the
// margin is for a machine busy with other work, where an xlsx read under
// the race detector once took over 10 s.
const readDeadline = time.Minute

// table is a table as read: the header when the last row was read, and
// the rows.
type table struct {
	header []string
	rows   []Row
}

// readChecked reads a whole table of the given format from data and checks
// the shape every reader promises, row by row: column names trimmed and
// unique, each row one cell per column known at that row, no blank row,
// rows in file order, and any error naming the table.
func readChecked(t *testing.T, kind string, data []byte) (table, error) {
	t.Helper()
	name := "fuzz." + kind
	type result struct {
		tab   table
		err   error
		shape string // what broke the promised shape
	}
	done := make(chan result, 1)
	go func() {
		var res result
		defer func() { done <- res }()
		r, err := newReader(kind, name, io.NopCloser(bytes.NewReader(data)))
		if err != nil {
			res.err = err
			return
		}
		defer r.close()
		for {
			row, err := r.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				res.err = err
				return
			}
			if res.shape = rowShape(r.header(), row, res.tab.rows); res.shape != "" {
				return
			}
			res.tab.rows = append(res.tab.rows, row)
		}
		res.tab.header = r.header()
		res.shape = headerShape(kind, res.tab.header)
	}()
	select {
	case res := <-done:
		if res.shape != "" {
			t.Fatalf("%s read from %q: %s", kind, data, res.shape)
		}
		if res.err != nil && !strings.HasPrefix(res.err.Error(), name) {
			t.Fatalf("the error does not name the table: %v", res.err)
		}
		return res.tab, res.err
	case <-time.After(readDeadline):
		t.Fatalf("reading %d bytes of %s took over %s", len(data), kind, readDeadline)
		return table{}, nil
	}
}

func headerShape(kind string, header []string) string {
	seen := map[string]bool{}
	for _, h := range header {
		if h != strings.TrimSpace(h) {
			return fmt.Sprintf("column %q is not trimmed", h)
		}
		if seen[h] {
			return fmt.Sprintf("column %q appears twice", h)
		}
		seen[h] = true
	}
	if kind != "jsonl" && (len(header) == 0 || header[len(header)-1] == "") {
		return fmt.Sprintf("header %q does not end in a named column", header)
	}
	return ""
}

func rowShape(header []string, row Row, before []Row) string {
	if msg := headerShape("jsonl", header); msg != "" {
		return msg
	}
	switch {
	case len(row.Cells) != len(header):
		return fmt.Sprintf("row %d has %d cells for %d columns", row.Line, len(row.Cells), len(header))
	case blank(row.Cells):
		return fmt.Sprintf("row %d is blank", row.Line)
	case len(before) > 0 && row.Line <= before[len(before)-1].Line:
		return fmt.Sprintf("row %d comes after row %d", row.Line, before[len(before)-1].Line)
	}
	return ""
}

// writeRead encodes a table as this package writes it and reads it back.
func writeRead(t *testing.T, kind string, header []string, rows [][]string, withBOM bool) table {
	t.Helper()
	var out bytes.Buffer
	enc, err := newEncoder(kind, bufio.NewWriter(&out), header, withBOM)
	require.NoError(t, err)
	for _, r := range rows {
		cells := make([]any, len(r))
		for i, c := range r {
			cells[i] = c
		}
		require.NoError(t, enc.encode(cells))
	}
	require.NoError(t, enc.flush())
	got, err := readChecked(t, kind, out.Bytes())
	require.NoError(t, err, "a table this package wrote reads back")
	return got
}

// requireSame checks a table read back against what was written: the same
// names and, row by row, the same cells, blank rows left out. A JSONL row
// read before a later key appeared is short of that column: it is empty.
func requireSame(t *testing.T, header []string, rows [][]string, got table, cell func(string) string) {
	t.Helper()
	require.Equal(t, header, got.header)
	var want [][]string
	for _, r := range rows {
		if !blank(r) {
			want = append(want, r)
		}
	}
	require.Len(t, got.rows, len(want))
	for i, r := range got.rows {
		for j := range header {
			w := ""
			if j < len(want[i]) {
				w = cell(want[i][j])
			}
			require.Equal(t, w, r.Cells[j], "row %d column %q", i+1, header[j])
		}
	}
}

func cellsOf(rows []Row) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = r.Cells
	}
	return out
}

// generated makes a table out of fuzz bytes, whatever they hold: the first
// byte picks the width and the BOM, then each cell takes a length byte and
// as many bytes after it, as UTF-8. Names are trimmed, unique and not
// empty, as a table's must be; cells hold anything.
func generated(data []byte) (header []string, rows [][]string, withBOM bool) {
	if len(data) == 0 {
		return []string{"ID"}, nil, false
	}
	width, withBOM := 1+int(data[0]%5), data[0]&0x80 != 0
	data = data[1:]
	take := func() string {
		if len(data) == 0 {
			return ""
		}
		n := min(int(data[0]%16), len(data)-1)
		s := strings.ToValidUTF8(string(data[1:1+n]), "\uFFFD")
		data = data[1+n:]
		return s
	}
	seen := map[string]bool{}
	for i := range width {
		// CSV cannot tell a name's CR LF from LF (see fuzzText): two names
		// differing only there would read back as one name twice. One pass
		// can leave a CR LF ("\r\r\n"), hence the loop.
		name := take()
		for strings.Contains(name, "\r\n") {
			name = strings.ReplaceAll(name, "\r\n", "\n")
		}
		name = strings.TrimSpace(name)
		for name == "" || seen[name] {
			name += fmt.Sprintf("c%d", i)
		}
		seen[name] = true
		header = append(header, name)
	}
	for len(data) > 0 {
		row := make([]string, width)
		for i := range row {
			row[i] = take()
		}
		rows = append(rows, row)
	}
	return header, rows, withBOM
}

// textSeeds are real and hostile tables of a text format.
func textSeeds(kind string) []string {
	return map[string][]string{
		"csv": {
			tickets,
			"\xEF\xBB\xBFID;Название;Описание\n1;Тема;\"<p>a; b</p>\"\n2;x\n",
			"\"a;b;c\",d\n1,2\n",
			"ID,Название,,\n1,a,,\n,\n2,b\n",
			"ID,,x,,y\n1,2,3,4,5\n",
			"ID,x\n1,\"multi\r\nline\"\n2,\"quote \"\" inside\"\n",
			"ID,x\n1,a,b\n",
			"ID,x\n1,\"open\n",
			"ID,Subject,Text\n1,\xcf\xf0\xe8\xe2\xe5\xf2,x\n",
			",,\n1,2\n",
			"",
			"\n\n\n",
			"\"",
			" ID , ID \n1,2\n",
		},
		"jsonl": {
			"{\"ID\": 1, \"Название\": \"s\", \"Описание\": null}\n\n{\"ID\": \"2\", \"Описание\": \"<b>d</b>\", \"extra\": [1]}\n",
			"\xEF\xBB\xBF{\"ID\":\"1\"}\n",
			"{\" ID \":\"1\"}\n{\"ID\":\"2\",\"x \":\"y\"}\n",
			"{\"ID\":\"1\"}\n{}\n{\"ID\":null,\"x\":\" \"}\n",
			"{\"ID\":\"1\"\n",
			"{\"ID\":\"1\"} {\"ID\":\"2\"}\n",
			"{\"ID\":\"1\",\"ID\":\"2\"}\n",
			"{\"ID\":{\"a\":\"\xff\"}}\n",
			"[1,2]\n",
			"{\"\":\"empty key\",\"a\":{\"nested\":[true,false,null,1e400]}}\n",
			"{\"ID\":\"\\u2028\\r\\n\\u0000\"}\n",
			"",
		},
	}[kind]
}

func fuzzText(f *testing.F, kind string) {
	for _, s := range textSeeds(kind) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		keep := func(s string) string { return s }
		// A JSONL table without rows has nothing to name its columns.
		rowless := func(rows int) bool { return kind == "jsonl" && rows == 0 }
		if tab, err := readChecked(t, kind, data); err == nil && !rowless(len(tab.rows)) {
			back := writeRead(t, kind, tab.header, cellsOf(tab.rows), false)
			requireSame(t, tab.header, cellsOf(tab.rows), back, keep)
		}
		header, rows, withBOM := generated(data)
		if rowless(len(rows)) {
			return
		}
		back := writeRead(t, kind, header, rows, withBOM)
		cell := keep
		if kind == "csv" {
			// A line break in a CSV cell reads as LF, with every CR
			// before it (lineBreaksAsLF).
			cell = func(s string) string {
				for strings.Contains(s, "\r\n") {
					s = strings.ReplaceAll(s, "\r\n", "\n")
				}
				return s
			}
		}
		requireSame(t, header, rows, back, cell)
	})
}

// FuzzCSVTable reads any bytes as a CSV table, and writes then reads both
// what it read and a table generated from the bytes.
func FuzzCSVTable(f *testing.F) { fuzzText(f, "csv") }

// FuzzJSONLTable does the same for JSONL.
func FuzzJSONLTable(f *testing.F) { fuzzText(f, "jsonl") }

// FuzzXLSXTable reads any bytes as a workbook; the seeds are small
// workbooks, made by excelize, by this package's writer and by hand.
func FuzzXLSXTable(f *testing.F) {
	keepInputsWhole(f)
	dir := f.TempDir()
	for _, seed := range xlsxSeeds(f, dir) {
		f.Add(seed)
	}
	for _, seed := range xlsxHostileSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = readChecked(t, "xlsx", data)
	})
}

func xlsxSeeds(f *testing.F, dir string) [][]byte {
	var seeds [][]byte
	saved := func(build func(x *excelize.File)) []byte {
		x := excelize.NewFile()
		build(x)
		p := filepath.Join(dir, fmt.Sprintf("seed%d.xlsx", len(seeds)))
		require.NoError(f, x.SaveAs(p))
		require.NoError(f, x.Close())
		b, err := os.ReadFile(p)
		require.NoError(f, err)
		seeds = append(seeds, b)
		return b
	}
	saved(func(x *excelize.File) {
		_ = x.SetSheetRow("Sheet1", "A1", &[]any{"ID", "Название", "Описание"})
		_ = x.SetSheetRow("Sheet1", "A2", &[]any{1000, "Тема", "<p>html</p>"})
		_ = x.SetSheetRow("Sheet1", "A4", &[]any{1001.5, true, nil}) // row 3 blank
		_ = x.SetCellValue("Sheet1", "A6", "")                       // formatted, empty
	})
	saved(func(x *excelize.File) {
		_ = x.SetSheetRow("Sheet1", "A1", &[]any{" ID ", "", "x", "", ""})
		_ = x.SetSheetRow("Sheet1", "A2", &[]any{"1", "2", "3", "", ""})
		_ = x.SetSheetRow("Sheet1", "A3", &[]any{"2", "", "", "", "past the header"})
	})
	saved(func(x *excelize.File) {
		_ = x.SetSheetRow("Sheet1", "A1", &[]any{"ID", "ID"})
	})
	hand := saved(func(x *excelize.File) {
		_ = x.SetSheetRow("Sheet1", "A1", &[]any{"ID"})
	})
	handPath := filepath.Join(dir, "hand.xlsx")
	require.NoError(f, os.WriteFile(handPath, hand, 0o644))
	for _, rows := range []string{
		`<row r="1"><c r="A1" t="inlineStr"><is><t>ID</t></is></c></row><row r="3"><c r="A3" t="inlineStr"><is><t>1</t></is></c></row>`,
		`<row r="1"><c r="A1" t="inlineStr"><is><t>ID</t></is></c></row><row r="2000000"><c r="A2000000"><v>1</v></c></row>`,
		`<row r="-5"><c r="A1" t="s"><v>99</v></c></row><row><c r="XFD1"><v>x</v></c></row>`,
		`<row r="1"><c r="B1" t="str"><v>b</v></c><c r="A1" t="str"><v>a</v></c></row><row r="2"><c r="ZZZZ2"><v>1</v></c></row>`,
	} {
		seeds = append(seeds, workbookWithSheet(f, handPath, rows))
	}
	for _, kind := range []string{"example", "written"} {
		p := filepath.Join(dir, kind+".xlsx")
		if kind == "example" {
			require.NoError(f, WriteExample(p, 12))
		} else {
			w, err := createTable(p, append([]string{"ID"}, ResultColumns("en")...), false)
			require.NoError(f, err)
			require.NoError(f, w.write([]any{"1", "a", "b", "answer", 0.5, 0.25, 2, "intent", "normal", "PASS", "Safe", ""}))
			require.NoError(f, w.commit())
		}
		b, err := os.ReadFile(p)
		require.NoError(f, err)
		seeds = append(seeds, b)
	}
	return append(seeds, []byte("PK\x03\x04not a zip"), []byte{})
}

// keepInputsWhole turns off the minimizing of new inputs while this target
// fuzzes, unless -fuzzminimizetime is given. The minimizer deletes an
// input's bytes one by one, then every range of them: millions of reads
// for a 6 KB workbook, none of them a zip any more. Go spends up to
// -fuzzminimizetime (60 s by default) on each input that finds new code,
// reporting no execs meanwhile: the fuzzer seemed to hang at 0 execs/sec.
func keepInputsWhole(f *testing.F) {
	const name = "test.fuzzminimizetime"
	given := false
	flag.Visit(func(fl *flag.Flag) { given = given || fl.Name == name })
	fl := flag.Lookup(name)
	if given || fl == nil {
		return
	}
	was := fl.Value.String()
	require.NoError(f, fl.Value.Set("0"))
	f.Cleanup(func() { _ = fl.Value.Set(was) })
}

// xlsxHostileSeeds are small workbooks past the reader's limits (see
// TestBatchXLSXRefusesWorkbooksPastTheLimits): sizes declared wrong, rows
// padded far to the right, tags in the styles, a compound file.
func xlsxHostileSeeds(f *testing.F) [][]byte {
	return [][]byte{
		zipParts(f, xlsxParts(f), map[string]uint64{"docProps/app.xml": 1<<63 + 256}),
		zipParts(f, xlsxParts(f), map[string]uint64{"xl/workbook.xml": 4026532352}),
		zipParts(f, withSheetRows(f, xlsxParts(f), inlineRow(1, "ID", "x")+wideBlankRows(2, 8)+inlineRow(10, "1", "a")), nil),
		zipParts(f, insertInto(f, xlsxParts(f), "xl/styles.xml", "</cellXfs>", strings.Repeat("<xf/>", 1000)), nil),
		append(slices.Clone(oleSignature), make([]byte, 512)...),
	}
}
