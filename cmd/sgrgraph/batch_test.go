package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBatchMakeExampleKeepsAnExistingFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tickets.csv")
	require.NoError(t, os.WriteFile(p, []byte("my own table\n"), 0o644))

	_, _, err := run(t, "batch", "--make-example", p, "--rows", "3")
	require.Error(t, err)
	assert.Contains(t, err.Error(), p, "the error names the file")
	assert.Contains(t, err.Error(), "--force", "and the flag that allows it")
	assert.Equal(t, "my own table\n", readText(t, p), "the file is untouched")

	out, _, err := run(t, "batch", "--make-example", p, "--rows", "3", "--force")
	require.NoError(t, err)
	assert.Contains(t, out, "wrote 3 example rows to "+p)
	assert.Len(t, readCSV(t, p), 4, "the header and three rows replace it")

	fresh := filepath.Join(t.TempDir(), "new.csv")
	_, _, err = run(t, "batch", "--make-example", fresh, "--rows", "2")
	require.NoError(t, err, "a new file needs no --force")
	assert.Len(t, readCSV(t, fresh), 3)
}

func TestBatchRefusesNumbersOutsideTheirRange(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such.csv")
	example := filepath.Join(t.TempDir(), "e.csv")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--concurrency", "0"}, "--concurrency: 0 is outside 1..64"},
		{[]string{"--concurrency", "-3"}, "--concurrency: -3 is outside 1..64"},
		{[]string{"--concurrency", "65"}, "--concurrency: 65 is outside 1..64"},
		{[]string{"--start", "0"}, "--start: 0 is below 1 (1 is the first data row)"},
		{[]string{"--start", "-3"}, "--start: -3 is below 1 (1 is the first data row)"},
		{[]string{"--limit", "-3"}, "--limit: -3 is below 0 (0 runs every row)"},
		{[]string{"--make-example", example, "--rows", "0"}, "--rows: 0 is outside 1..1000000"},
		{[]string{"--make-example", example, "--rows", "-3"}, "--rows: -3 is outside 1..1000000"},
		{[]string{"--make-example", example, "--rows", "1000001"}, "--rows: 1000001 is outside 1..1000000"},
		{[]string{"--make-example", example, "--concurrency", "0"}, "--concurrency: 0 is outside 1..64"},
		{[]string{"--rows", "5"}, "--rows: only with --make-example FILE"},
		{[]string{"--force"}, "--force: only with --make-example FILE"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, _, err := run(t, append([]string{"batch", "--input", missing}, tc.args...)...)
			require.Error(t, err)
			assert.EqualError(t, err, tc.want)
			assert.NoFileExists(t, example, "nothing is written")
		})
	}
	t.Run("the bounds are accepted", func(t *testing.T) {
		_, _, err := run(t, "batch", "--make-example", example, "--rows", "1", "--concurrency", "64", "--start", "1", "--limit", "0")
		require.NoError(t, err)
	})
}

func TestBatchRerunsAnEditedRowFromTheCommandLine(t *testing.T) {
	cache, dir := docsCache, t.TempDir()
	in := filepath.Join(dir, "t.csv")
	_, _, err := run(t, "batch", "--make-example", in, "--rows", "3")
	require.NoError(t, err)
	out, _, err := run(t, "batch", "--input", in, "--cache-dir", cache)
	require.NoError(t, err)
	assert.Contains(t, out, "batch: 3 rows: 3 done, 0 failed, 0 skipped (done before), 0 not run")
	before := readCSV(t, filepath.Join(dir, "t.out.csv"))

	rows := readCSV(t, in)
	rows[2][1], rows[2][2] = "Decision tables", "What is hit policy FIRST?" // row 1001 keeps its ID
	writeCSV(t, in, rows)
	out, _, err = run(t, "batch", "--input", in, "--cache-dir", cache)
	require.NoError(t, err)
	assert.Contains(t, out, "batch: 3 rows: 1 done, 0 failed, 2 skipped (done before), 0 not run")
	assert.Contains(t, out, "changed: 1 rows ask something else than their last result answered")

	after := readCSV(t, filepath.Join(dir, "t.out.csv"))
	answer := slices.Index(after[0], "answer")
	require.Positive(t, answer)
	assert.Equal(t, "What is hit policy FIRST?", after[2][2])
	assert.NotEqual(t, before[2][answer], after[2][answer], "the edited row shows its new answer")
	assert.Equal(t, before[1][answer], after[1][answer])
	assert.Equal(t, before[3][answer], after[3][answer])

	// The results file as an earlier version wrote it: no request hashes.
	results := filepath.Join(dir, "t.out.results.jsonl")
	unhashed := regexp.MustCompile(`,"request_sha256":"[0-9a-f]*"`).ReplaceAllString(readText(t, results), "")
	require.NotContains(t, unhashed, "request_sha256")
	require.NoError(t, os.WriteFile(results, []byte(unhashed), 0o644))
	out, _, err = run(t, "batch", "--input", in, "--cache-dir", cache)
	require.NoError(t, err)
	assert.Contains(t, out, "batch: 3 rows: 0 done, 0 failed, 3 skipped (done before), 0 not run")
	assert.Contains(t, out, "unhashed: 3 results had no request hash", "the summary says they were checked")
}

func readText(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}

func readCSV(t *testing.T, p string) [][]string {
	t.Helper()
	f, err := os.Open(p)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	return rows
}

func writeCSV(t *testing.T, p string, rows [][]string) {
	t.Helper()
	f, err := os.Create(p)
	require.NoError(t, err)
	w := csv.NewWriter(f)
	require.NoError(t, w.WriteAll(rows))
	require.NoError(t, f.Close())
}

// --lang names the added columns; the results file is where the summary
// (and the docs) say: beside the output, named after it.
func TestBatchLangNamesTheColumns(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "tickets.csv")
	require.NoError(t, os.WriteFile(in, []byte("ID,Название,Описание\n1,Режим фильтра,Как включить режим report?\n"), 0o644))
	out, _, err := run(t, "batch", "--input", in, "--lang", "ru", "--cache-dir", docsCache)
	require.NoError(t, err)
	rows := readCSV(t, filepath.Join(dir, "tickets.out.csv"))
	assert.Equal(t, []string{"ID", "Название", "Описание", "Статьи", "Найденные чанки", "Ответ на обращение"}, rows[0][:6])
	assert.Contains(t, out, "results: "+filepath.Join(dir, "tickets.out.results.jsonl"))
	assert.FileExists(t, filepath.Join(dir, "tickets.out.results.jsonl"))
	assert.Contains(t, rows[1][5], "Перечень рекомендованных статей:", "a written answer carries the header of seed 003 §10")

	_, _, err = run(t, "batch", "--input", in, "--lang", "de")
	assert.EqualError(t, err, `--lang: "de" is not en or ru`)
}
