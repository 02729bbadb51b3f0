package batch

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
)

// xlsxParts is a small workbook excelize made, part by part: "ID" in A1.
func xlsxParts(t testing.TB) map[string][]byte {
	t.Helper()
	x := excelize.NewFile()
	require.NoError(t, x.SetSheetRow("Sheet1", "A1", &[]any{"ID"}))
	buf, err := x.WriteToBuffer()
	require.NoError(t, err)
	require.NoError(t, x.Close())
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	parts := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		parts[f.Name], err = io.ReadAll(rc)
		require.NoError(t, err)
		rc.Close()
	}
	return parts
}

// withSheetRows replaces the first sheet's rows by rows, XML written by
// hand.
func withSheetRows(t testing.TB, parts map[string][]byte, rows string) map[string][]byte {
	t.Helper()
	s := string(parts["xl/worksheets/sheet1.xml"])
	open, end := strings.Index(s, "<sheetData"), strings.Index(s, "</sheetData>")
	require.True(t, open >= 0 && end > open, "the workbook's first sheet has rows")
	parts["xl/worksheets/sheet1.xml"] = []byte(s[:open] + "<sheetData>" + rows + s[end:])
	return parts
}

// insertInto puts text into a part before the first occurrence of at.
func insertInto(t testing.TB, parts map[string][]byte, name, at, text string) map[string][]byte {
	t.Helper()
	s := string(parts[name])
	i := strings.Index(s, at)
	require.GreaterOrEqual(t, i, 0, "%s holds %s", name, at)
	parts[name] = []byte(s[:i] + text + s[i:])
	return parts
}

// zipParts zips parts in name order, deflated; declared gives a part an
// unzipped size other than its own, as a damaged or crafted zip does.
func zipParts(t testing.TB, parts map[string][]byte, declared map[string]uint64) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	names := make([]string, 0, len(parts))
	for n := range parts {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		size, lie := declared[n]
		if !lie {
			method := zip.Deflate
			if len(parts[n]) == 0 {
				method = zip.Store // quicker to make
			}
			w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: method})
			require.NoError(t, err)
			_, err = w.Write(parts[n])
			require.NoError(t, err)
			continue
		}
		var packed bytes.Buffer
		fw, err := flate.NewWriter(&packed, flate.BestSpeed)
		require.NoError(t, err)
		_, err = fw.Write(parts[n])
		require.NoError(t, err)
		require.NoError(t, fw.Close())
		w, err := zw.CreateRaw(&zip.FileHeader{Name: n, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(parts[n]),
			CompressedSize64: uint64(packed.Len()), UncompressedSize64: size})
		require.NoError(t, err)
		_, err = w.Write(packed.Bytes())
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return out.Bytes()
}

// wideBlankRows are n rows from row first with nothing in them but an
// empty formula in the workbook's last column: excelize pads each with
// 16,383 empty cells.
func wideBlankRows(first, n int) string {
	var b strings.Builder
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, `<row r="%d"><c r="XFD%d"><f></f></c></row>`, i, i)
	}
	return b.String()
}

// inlineRow is a row of inline strings.
func inlineRow(line int, cells ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<row r="%d">`, line)
	for i, c := range cells {
		name, _ := excelize.CoordinatesToCellName(i+1, line)
		fmt.Fprintf(&b, `<c r="%s" t="inlineStr"><is><t>%s</t></is></c>`, name, c)
	}
	b.WriteString("</row>")
	return b.String()
}

// TestBatchXLSXRefusesWorkbooksPastTheLimits reads workbooks that took
// excelize minutes or gigabytes, or made it panic: each is refused at
// once, with an error naming the table, the problem and the limit.
func TestBatchXLSXRefusesWorkbooksPastTheLimits(t *testing.T) {
	tooBig := fmt.Sprintf("fuzz.xlsx: the workbook unzips to over %d MiB, the most read from an .xlsx table; save the table as CSV UTF-8, or split it", xlsxMaxUnzipped>>20)
	tests := []struct {
		name  string
		build func(t *testing.T) []byte
		want  string
	}{
		{"a part declaring a size past 2^63 (excelize panicked)", func(t *testing.T) []byte {
			return zipParts(t, xlsxParts(t), map[string]uint64{"docProps/app.xml": 1<<63 + 256})
		}, tooBig},
		{"a part declaring 4 GiB (excelize allocated it)", func(t *testing.T) []byte {
			return zipParts(t, xlsxParts(t), map[string]uint64{"xl/workbook.xml": 4026532352})
		}, tooBig},
		{"a zip bomb: 17 MiB of zeros in 23 KB", func(t *testing.T) []byte {
			return zipParts(t, withPart(xlsxParts(t), "xl/media/image1.png", make([]byte, xlsxMaxOther+1<<20)), nil)
		}, fmt.Sprintf(`the workbook's parts other than its sheets (shared strings, styles, pictures) unzip to over %d MiB, the most read from an .xlsx table, "xl/media/image1.png" reaching it`, xlsxMaxOther>>20)},
		{"sheets past the limit together", func(t *testing.T) []byte {
			parts := withPart(xlsxParts(t), "xl/worksheets/sheet2.xml", []byte("<worksheet/>"))
			return zipParts(t, parts, map[string]uint64{"xl/worksheets/sheet1.xml": xlsxMaxUnzipped - 100, "xl/worksheets/sheet2.xml": 200})
		}, tooBig},
		{"a file past the limit", func(t *testing.T) []byte {
			return make([]byte, xlsxMaxUnzipped+1)
		}, fmt.Sprintf("fuzz.xlsx: the file is over %d MiB, the most read from an .xlsx table", xlsxMaxUnzipped>>20)},
		{"shared strings past the limit of the parts besides the sheets", func(t *testing.T) []byte {
			return zipParts(t, withPart(xlsxParts(t), "xl/sharedStrings.xml", []byte("<sst/>")), map[string]uint64{"xl/sharedStrings.xml": xlsxMaxOther + 1})
		}, fmt.Sprintf(`fuzz.xlsx: the workbook's parts other than its sheets (shared strings, styles, pictures) unzip to over %d MiB, the most read from an .xlsx table, "xl/sharedStrings.xml" reaching it`, xlsxMaxOther>>20)},
		{"styles of a million tags in 5 MiB", func(t *testing.T) []byte {
			return zipParts(t, insertInto(t, xlsxParts(t), "xl/styles.xml", "</cellXfs>", strings.Repeat("<xf/>", xlsxMaxTags)), nil)
		}, fmt.Sprintf(`fuzz.xlsx: the workbook's parts other than its sheets (shared strings, styles) hold over %d XML tags, the most read from an .xlsx table, "xl/styles.xml" reaching it`, xlsxMaxTags)},
		{"more parts than a workbook has", func(t *testing.T) []byte {
			parts := xlsxParts(t)
			for i := range xlsxMaxParts {
				parts[fmt.Sprintf("customXml/item%d.xml", i)] = nil
			}
			return zipParts(t, parts, nil)
		}, fmt.Sprintf("fuzz.xlsx: the workbook has over %d parts, the most read from an .xlsx table", xlsxMaxParts)},
		{"rows padded past the cell limit", func(t *testing.T) []byte {
			return zipParts(t, withSheetRows(t, xlsxParts(t), inlineRow(1, "ID")+wideBlankRows(2, xlsxMaxCells/excelize.MaxColumns)), nil)
		}, fmt.Sprintf("fuzz.xlsx row %d: the sheet has over %d cells up to here (the empty ones before a row's last cell count), the most read from an .xlsx table",
			xlsxMaxCells/excelize.MaxColumns+1, xlsxMaxCells)},
		{"a row past the text limit", func(t *testing.T) []byte {
			return zipParts(t, withSheetRows(t, xlsxParts(t), inlineRow(1, "ID", "x")+inlineRow(2, "1", strings.Repeat("x", maxLine))), nil)
		}, fmt.Sprintf("fuzz.xlsx row 2: over %d MiB of text, the most a row may hold", maxLine>>20)},
		{"a compound file: password-protected, or .xls", func(t *testing.T) []byte {
			return append(slices.Clone(oleSignature), make([]byte, 4096)...)
		}, "fuzz.xlsx: not an .xlsx workbook: it is password-protected, or an old .xls; save it as .xlsx without a password"},
		{"not a zip", func(t *testing.T) []byte { return []byte("ID,x\n1,2\n") }, "fuzz.xlsx: not an .xlsx workbook: zip: not a valid zip file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.build(t)
			start := time.Now()
			_, err := readChecked(t, "xlsx", data)
			took := time.Since(start)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			t.Logf("%d bytes refused in %s", len(data), took)
		})
	}
}

// withPart adds a part to a workbook.
func withPart(parts map[string][]byte, name string, data []byte) map[string][]byte {
	parts[name] = data
	return parts
}

// TestBatchXLSXReadsWithinTheLimits reads workbooks near the limits as
// before: a sheet streamed from a temporary file, rows padded far to the
// right.
func TestBatchXLSXReadsWithinTheLimits(t *testing.T) {
	long := strings.Repeat("x", xlsxMaxOther/2+1)
	tests := []struct {
		name  string
		rows  string
		cells [][]string
		lines []int
	}{
		{"a sheet over 16 MiB, streamed", inlineRow(1, "ID", "x") + inlineRow(2, "1", long) + inlineRow(3, "2", long),
			[][]string{{"1", long}, {"2", long}}, []int{2, 3}},
		{"blank rows padded far to the right", inlineRow(1, "ID", "x") + wideBlankRows(2, 100) + inlineRow(102, "1", "a"),
			[][]string{{"1", "a"}}, []int{102}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := readChecked(t, "xlsx", zipParts(t, withSheetRows(t, xlsxParts(t), tc.rows), nil))
			require.NoError(t, err)
			assert.Equal(t, []string{"ID", "x"}, tab.header)
			require.Len(t, tab.rows, len(tc.cells))
			for i, r := range tab.rows {
				assert.Equal(t, tc.cells[i], r.Cells)
				assert.Equal(t, tc.lines[i], r.Line)
			}
		})
	}
}

func TestXLSXExampleStaysReadable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.xlsx")
	err := WriteExample(path, MaxExampleXLSXRows+1)
	assert.ErrorContains(t, err, "--rows: 200001 is over 200000, the most an .xlsx example holds")
	assert.NoFileExists(t, path)
}

// A workbook written is a plain file, as the CSV and JSONL ones are, not
// an executable one (excelize's own mode).
func TestAWrittenWorkbookIsNotExecutable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tickets.xlsx")
	require.NoError(t, WriteExample(path, 3))
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Zero(t, info.Mode().Perm()&0o111, "mode %v", info.Mode())
}
