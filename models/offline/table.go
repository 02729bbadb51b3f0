package offline

import "strings"

// cells are the trimmed cells of a Markdown table line, "| a | b |".
func cells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	line = strings.TrimSuffix(line, "|")
	out := strings.Split(line, "|")
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}

// tableRow is a table's data row as one quotable statement, named by its
// first cell and told by the rest: "code 130: SIGINT (Ctrl-C) ended the
// command" from the header "code | meaning". Past two columns each later
// cell is named by its header too ("flag `--limit`: range 0 and up; …").
// "" for the row under the header ("|---|---|") and for a row with less
// than two cells filled: it states nothing.
func tableRow(header, row []string) string {
	if len(row) < 2 || separatorRow(row) {
		return ""
	}
	named := func(i int) string {
		if i < len(header) && header[i] != "" && (i == 0 || len(row) > 2) {
			return header[i] + " " + row[i]
		}
		return row[i]
	}
	var told []string
	for i := 1; i < len(row); i++ {
		if row[i] != "" {
			told = append(told, named(i))
		}
	}
	if row[0] == "" || len(told) == 0 {
		return ""
	}
	return named(0) + ": " + strings.Join(told, "; ")
}

// separatorRow: the row of dashes under a table's header.
func separatorRow(row []string) bool {
	for _, c := range row {
		if strings.Trim(c, ":- ") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return true
}
