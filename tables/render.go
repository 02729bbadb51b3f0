package tables

import (
	"fmt"
	"strings"
)

// Markdown prints the table as documentation: a heading, the description, the
// rules with their numbers, the values each input accepts, and the hit policy.
func (t *Table) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s: %s\n\n", t.ID, t.Title)
	if t.Description != "" {
		fmt.Fprintf(&b, "%s\n\n", t.Description)
	}
	head := []string{"#"}
	for _, c := range t.Inputs {
		head = append(head, c.Name)
	}
	for _, c := range t.Outputs {
		head = append(head, "→ "+c.Name)
	}
	head = append(head, "annotation")
	writeRow(&b, head)
	sep := make([]string, len(head))
	for i := range sep {
		sep[i] = "---"
	}
	writeRow(&b, sep)
	for i, r := range t.Rules {
		row := append([]string{fmt.Sprint(i + 1)}, r.Inputs...)
		row = append(row, r.Outputs...)
		writeRow(&b, append(row, r.Annotation))
	}
	b.WriteString("\nInputs:\n\n")
	for _, c := range t.Inputs {
		fmt.Fprintf(&b, "- `%s`: %s\n", c.Name, c.Domain())
	}
	fmt.Fprintf(&b, "\nHit policy: %s (table name `%s`)\n", t.HitPolicy, t.Name)
	return b.String()
}

func writeRow(b *strings.Builder, cells []string) {
	for i, c := range cells {
		cells[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
}
