package templates

import (
	"encoding/json"
	"strings"
	"sync"
)

// subqueriesFields are the lines that open the Analysis list of the plan's
// search queries, one per language of the labels ("**Subqueries**:",
// "**Подзапросы**:").
var subqueriesFields = sync.OnceValue(func() map[string]bool {
	fields := map[string]bool{}
	labels, err := UILabels()
	if err != nil { // the embedded labels: their tests keep them valid
		return fields
	}
	for lang := range labels {
		fields["**"+labels.Label(lang, "analysis_field_subqueries", nil)+"**:"] = true
	}
	return fields
})

// Subqueries reads the plan's search queries back out of a synthetic
// message (or a directive tool result): the quoted items of the
// Subqueries list, decoded. It reports false when the message has no such
// list or an item is not quoted data, so a reader never searches for our
// own Markdown.
func Subqueries(message string) ([]string, bool) {
	lines := strings.Split(message, "\n")
	fields := subqueriesFields()
	start := -1
	for i, line := range lines {
		if fields[line] {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return nil, false
	}
	out := []string{}
	for _, line := range lines[start:] {
		item, ok := strings.CutPrefix(line, "- ")
		if !ok {
			break
		}
		if item == none {
			continue
		}
		var q string
		if err := json.Unmarshal([]byte(item), &q); err != nil {
			return nil, false
		}
		out = append(out, q)
	}
	return out, true
}
