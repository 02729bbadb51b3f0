package batch

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
)

func TestBatchReadersAgreeOnTheTableShape(t *testing.T) {
	tests := []struct {
		name, file, body string
		header           []string
		cells            [][]string
	}{
		{"a quoted name may hold the other separator", "a.csv", "\"a;b;c\",d\n1,2\n", []string{"a;b;c", "d"}, [][]string{{"1", "2"}}},
		{"semicolons outside quotes still choose ;", "b.csv", "a;b;\"c,d,e\"\n1;2;3\n", []string{"a", "b", "c,d,e"}, [][]string{{"1", "2", "3"}}},
		{"trailing separators name no column", "c.csv", "ID,Название,,\n1,a,,\n2,b\n", []string{"ID", "Название"}, [][]string{{"1", "a"}, {"2", "b"}}},
		{"a spreadsheet's blank row saved as separators is skipped", "d.csv", "ID,x\n1,a\n,\n , \n2,b\n", []string{"ID", "x"}, [][]string{{"1", "a"}, {"2", "b"}}},
		{"one unnamed column in the middle is kept", "e.csv", "ID,,x\n1,2,3\n", []string{"ID", "", "x"}, [][]string{{"1", "2", "3"}}},
		{"jsonl keys are trimmed like column names", "f.jsonl", "{\" ID \":\"1\"}\n{\"ID\":\"2\",\"x \":\"y\"}\n", []string{"ID", "x"}, [][]string{{"1"}, {"2", "y"}}},
		{"a jsonl object with no value is a blank row", "g.jsonl", "{\"ID\":\"1\"}\n{}\n{\"ID\":null,\"x\":\" \"}\n{\"ID\":\"2\"}\n", []string{"ID", "x"}, [][]string{{"1"}, {"2", ""}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			header, rows := readAll(t, write(t, tc.file, tc.body))
			assert.Equal(t, tc.header, header)
			require.Len(t, rows, len(tc.cells))
			for i, r := range rows {
				assert.Equal(t, tc.cells[i], r.Cells)
			}
		})
	}
}

func TestBatchReadersRefuseWhatTheyCannotShape(t *testing.T) {
	tests := []struct {
		name, file, body, want string
	}{
		{"two unnamed columns", "a.csv", "ID,,x,,y\n1,2,3,4,5\n", "a.csv row 1: columns 2 and 4 have no name; name them"},
		{"a header naming nothing", "b.csv", ",,\n1,2,3\n", "b.csv row 1: no column is named"},
		{"a value past the named columns", "c.csv", "ID,x,,\n1,a,,b\n", "c.csv row 2: 4 cells, but the header names 2 columns"},
		{"a jsonl object not closed", "d.jsonl", "{\"ID\":\"1\"\n", "d.jsonl line 1: the object is not closed"},
		// The decoder's io.EOF there once read as the file's end: the rows after it were lost.
		{"a jsonl line ending after a comma", "d2.jsonl", "{\"ID\":\"1\"}\n{\"ID\":\"2\",\n{\"ID\":\"3\"}\n", "d2.jsonl line 2: the object is not closed"},
		{"a jsonl line ending after a key", "d3.jsonl", "{\"ID\":\"1\"}\n{\"ID\":\n", "d3.jsonl line 2: key \"ID\": the object is not closed"},
		{"a jsonl line over the limit", "d4.jsonl", "{\"ID\":\"" + strings.Repeat("a", maxLine) + "\"}\n", "d4.jsonl line 1: longer than the limit of 16 MiB a line"},
		{"two objects on a jsonl line", "e.jsonl", "{\"ID\":\"1\"} {\"ID\":\"2\"}\n", "e.jsonl line 1: text after the object"},
		{"a jsonl key given twice", "f.jsonl", "{\"ID\":\"1\",\"ID\":\"2\"}\n", `f.jsonl line 1: column "ID" is given twice`},
		{"a jsonl key given twice once trimmed", "g.jsonl", "{\"ID\":\"1\"}\n{\"ID\":\"2\",\" ID\":\"3\"}\n", `g.jsonl line 2: column "ID" is given twice`},
		{"jsonl that is not UTF-8", "h.jsonl", "{\"ID\":\"1\"}\n{\"ID\":{\"a\":\"\xff\"}}\n", "h.jsonl line 2: not UTF-8 text"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := readErr(write(t, tc.file, tc.body))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// readErr reads a whole table and returns the first error.
func readErr(path string) error {
	r, err := openTable(path)
	if err != nil {
		return err
	}
	defer r.close()
	for {
		if _, err := r.next(); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
	}
}

func TestBatchCSVHeaderWithSemicolonsReadsBack(t *testing.T) {
	p := filepath.Join(t.TempDir(), "o.csv")
	w, err := createTable(p, []string{"a;b;c", "d"}, false)
	require.NoError(t, err)
	require.NoError(t, w.write([]any{"1", "2"}))
	require.NoError(t, w.commit())
	header, rows := readAll(t, p)
	assert.Equal(t, []string{"a;b;c", "d"}, header, "a name holding ; does not make ; the separator")
	assert.Equal(t, []string{"1", "2"}, rows[0].Cells)
}

func TestBatchXLSXRowNumberedPastTheLastRowStops(t *testing.T) {
	p := filepath.Join(t.TempDir(), "far.xlsx")
	f := excelize.NewFile()
	require.NoError(t, f.SetSheetRow("Sheet1", "A1", &[]any{"ID"}))
	require.NoError(t, f.SaveAs(p))
	require.NoError(t, f.Close())
	data := workbookWithSheet(t, p, fmt.Sprintf(`<row r="1"><c r="A1" t="inlineStr"><is><t>ID</t></is></c></row><row r="%d"><c r="A2" t="inlineStr"><is><t>1</t></is></c></row>`, 1<<31-1))
	start := time.Now()
	err := readErr(write(t, "far.xlsx", string(data)))
	assert.ErrorContains(t, err, fmt.Sprintf("a row past row %d", excelize.TotalRows))
	assert.Less(t, time.Since(start), 20*time.Second)
}

// workbookWithSheet is the workbook at path with its first sheet's rows
// replaced by rows, XML written by hand: what excelize would never write.
func workbookWithSheet(t testing.TB, path, rows string) []byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	defer zr.Close()
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		in, err := f.Open()
		require.NoError(t, err)
		body, err := io.ReadAll(in)
		require.NoError(t, err)
		in.Close()
		if f.Name == "xl/worksheets/sheet1.xml" {
			s := string(body)
			open, end := strings.Index(s, "<sheetData"), strings.Index(s, "</sheetData>")
			require.True(t, open >= 0 && end > open, "the workbook's first sheet has rows")
			body = []byte(s[:open] + "<sheetData>" + rows + s[end:])
		}
		w, err := zw.Create(f.Name)
		require.NoError(t, err)
		_, err = w.Write(body)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return out.Bytes()
}
