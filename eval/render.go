package eval

import (
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// WriteMarkdown renders the report as Markdown; its plots are linked by
// file name (Write puts them beside it).
func (r Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	for _, bl := range r.document() {
		switch {
		case bl.heading > 0:
			fmt.Fprintf(&b, "%s %s\n\n", strings.Repeat("#", bl.heading), bl.text)
		case bl.header != nil:
			fmt.Fprintf(&b, "| %s |\n|%s\n", strings.Join(bl.header, " | "), strings.Repeat("---|", len(bl.header)))
			for _, row := range bl.rows {
				fmt.Fprintf(&b, "| %s |\n", strings.Join(row, " | "))
			}
			b.WriteString("\n")
		case bl.list != nil:
			for _, it := range bl.list {
				fmt.Fprintf(&b, "- %s\n", mdEscape(it))
			}
			b.WriteString("\n")
		case bl.images != nil:
			for _, img := range bl.images {
				fmt.Fprintf(&b, "![%s](%s) ", img, img)
			}
			b.WriteString("\n\n")
		default:
			fmt.Fprintf(&b, "%s\n\n", bl.text)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdEscape keeps a quoted message from being read as Markdown.
func mdEscape(s string) string {
	r := strings.NewReplacer("*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", "[", `\[`, "|", `\|`)
	return r.Replace(s)
}

// WriteHTML renders the report as one self-contained HTML page: the plots
// are inline SVG, the style is inline, and nothing is loaded from elsewhere.
func (r Report) WriteHTML(w io.Writer) error {
	plots := r.Plots()
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>sgrgraph eval</title><style>` +
		`body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}` +
		`table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #bbb;padding:.25em .6em;text-align:right}` +
		`td:first-child,th:first-child{text-align:left}code{font-size:.95em}li{font-size:.9em}</style></head><body>`)
	for _, bl := range r.document() {
		switch {
		case bl.heading > 0:
			fmt.Fprintf(&b, "<h%d>%s</h%d>", bl.heading, html.EscapeString(bl.text), bl.heading)
		case bl.header != nil:
			b.WriteString("<table><tr>")
			for _, h := range bl.header {
				fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(h))
			}
			b.WriteString("</tr>")
			for i, row := range bl.rows {
				b.WriteString("<tr>")
				for j, cell := range row {
					style := ""
					if bl.shade != nil && bl.shade[i][j] > 0 {
						style = fmt.Sprintf(` style="background:rgba(31,95,191,%.2f)"`, 0.1+0.6*bl.shade[i][j])
					}
					fmt.Fprintf(&b, "<td%s>%s</td>", style, inlineCode(cell))
				}
				b.WriteString("</tr>")
			}
			b.WriteString("</table>")
		case bl.list != nil:
			b.WriteString("<ul>")
			for _, it := range bl.list {
				fmt.Fprintf(&b, "<li>%s</li>", html.EscapeString(it))
			}
			b.WriteString("</ul>")
		case bl.images != nil:
			b.WriteString("<p>")
			for _, img := range bl.images {
				b.WriteString(plots[img])
			}
			b.WriteString("</p>")
		default:
			fmt.Fprintf(&b, "<p>%s</p>", html.EscapeString(bl.text))
		}
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// inlineCode renders a cell quoted in backticks as code.
func inlineCode(cell string) string {
	if len(cell) > 2 && strings.HasPrefix(cell, "`") && strings.HasSuffix(cell, "`") {
		return "<code>" + html.EscapeString(strings.Trim(cell, "`")) + "</code>"
	}
	return html.EscapeString(cell)
}

// Write puts the report in dir, creating it: report.md with its plots
// beside it as SVG files, report.html, which carries them inline, and
// results.jsonl, every item's run.
func (r Report) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	for name, svg := range r.Plots() {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(svg+"\n"), 0o644); err != nil {
			return err
		}
	}
	for name, render := range map[string]func(io.Writer) error{"report.md": r.WriteMarkdown, "report.html": r.WriteHTML, "results.jsonl": r.WriteResults} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		err = render(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}
