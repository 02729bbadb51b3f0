package kb

import (
	"regexp"
	"strings"
)

// Site generators write markup of their own into Markdown, which the
// rendered page turns into boxes and tabs and never shows as text: Hugo's
// shortcodes ({{< note >}}, {{% tab %}}), Jekyll's Liquid tags
// ({% include … %}), admonitions (Docusaurus and VitePress ":::tip Title",
// MkDocs "!!! note "Title"" over an indented body, PyMdown's "/// note |
// Title"), Material for MkDocs' tabs (=== "Linux"), MDX's imports and its
// components on lines of their own (<Tabs>, <TabItem label="macOS">,
// <Callout type="info">). Markdown's own link definitions
// ("[issue-572]: https://…"), which a page never shows, go too. Indexed as
// words, "callout", "info" and "tabitem" matched questions that say them;
// quoted, "{{< /note >}}" read as nonsense. withoutSiteMarkup drops the
// markup and keeps what it wraps, and what the page shows of it: an
// admonition's or a tab's title, as a line of its own. Code, fenced,
// indented or in backticks, is left as written: a page that documents the
// markup shows it there.

var (
	// shortcodeOrTag is a Hugo shortcode or a Liquid tag within a line.
	shortcodeOrTag = regexp.MustCompile(`\{\{<.*?>\}\}|\{\{%.*?%\}\}|\{%.*?%\}`)
	// shortcodeTitle is the title a shortcode alone on its line shows: a
	// tab's header, a notice's title ({{< tab header="macOS" >}}).
	shortcodeTitle = regexp.MustCompile(`^\s*\{\{[<%]\s*[\w./-]+\s[^}]*?\b(?:header|title|name|label)="([^"]+)"[^}]*[>%]\}\}\s*$`)
	// codeShortcode opens or closes a block the page shows as code, as a
	// fence does: {% highlight js %} … {% endhighlight %}, {{< highlight
	// go >}} … {{< /highlight >}}, {{< code >}}, and {% raw %}, whose text
	// is shown as written.
	codeShortcode = regexp.MustCompile(`^\s*(?:\{%-?\s*(highlight|raw|endhighlight|endraw)\b\s*([\w+-]*)[^%]*-?%\}|\{\{<\s*(/?)(highlight|code)\b\s*([\w+-]*)[^>]*>\}\})\s*$`)
	// fencedAdmonition opens or closes a Docusaurus or VitePress
	// admonition, or a Pandoc div: ":::", ":::note", "::: tip Title",
	// ":::info[Title]", "::: {.warning}".
	fencedAdmonition = regexp.MustCompile(`^:{3,}\s*(?:\{[^}]*\}|[A-Za-z][\w-]*(?:\[([^\]]*)\])?)?(?:\s+(.*?))?\s*$`)
	// autodoc is mkdocstrings' directive "::: httpx.AsyncClient": the page
	// shows the documentation of the Python object it names, read from
	// the code, under the indented options that follow it (":docstring:",
	// "options:"), which the page never shows. A dotted name tells it from
	// an admonition ("::: tip Title").
	autodoc = regexp.MustCompile(`^:::\s*[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\s*$`)
	// indentedAdmonition opens a MkDocs admonition, whose body is
	// indented under it: `!!! note "Title"`, `??? tip`, `???+ warning
	// inline end`; or a content tab of Material for MkDocs: `=== "Linux"`.
	// Its type is a word in lower case: "!!! Do not delete" is a sentence.
	indentedAdmonition = regexp.MustCompile(`^(?:(?:!!!|\?\?\?\+?)\s*[a-z][a-z0-9-]*(?:\s+(?:inline|end))*(?:\s+"([^"]*)")?|===\+?\s+"([^"]*)")\s*$`)
	// slashBlock opens or closes a block of PyMdown's: `/// note | Title`,
	// `/// details`, `///`.
	slashBlock = regexp.MustCompile(`^/{3,}\s*(?:[a-z][\w-]*)?\s*(?:\|\s*(.*?))?\s*$`)
	// component is a line that is one JSX tag: <Name …>, </Name>,
	// <Name … />, a name starting with a capital (HTML's are lower case).
	component = regexp.MustCompile(`^<(/?)([A-Z][\w]*(?:\.[A-Z][\w]*)*)(\s[^<>]*?)?\s*(/?)>\s*$`)
	// componentTitle is the attribute a tab or a box is titled by.
	componentTitle = regexp.MustCompile(`\b(?:label|title)=(?:"([^"]*)"|'([^']*)')`)
	tabValue       = regexp.MustCompile(`\bvalue=(?:"([^"]*)"|'([^']*)')`)
	// linkDefinition is a reference link's definition: a label, its
	// address and an optional title. A footnote's ("[^1]: …") is shown.
	linkDefinition = regexp.MustCompile(`^\[[^\]^][^\]]*\]:\s*\S+(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*$`)
	// mdxStatement is an MDX import or a one-line export.
	mdxStatement = regexp.MustCompile(`^(?:import\s+(?:[\w*{}\s,$]+\s+from\s+)?['"][^'"]+['"];?|export\s+(?:default\s+)?(?:const|let|var|function|class|async)\b.*)\s*$`)
)

// withoutSiteMarkup is body without site generators' markup (see above).
// Markup that stands on a line of its own is read so only when indented by
// three spaces at most: more is an indented code block. An MkDocs
// admonition or tab, an MDX import or export and a link definition also
// start a block (after a blank line, a heading or other markup): a
// paragraph's next line is text.
func withoutSiteMarkup(body string) string {
	closed := closedComponents(body)
	var b strings.Builder
	b.Grow(len(body))
	var code fence
	inBody := false    // within a MkDocs admonition's or tab's indented body
	verbatim := ""     // within a code shortcode: the name that closes it
	blockStart := true // the line starts a block
	options := false   // within an autodoc directive's options
	for _, line := range strings.SplitAfter(body, "\n") {
		if options {
			if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
				continue
			}
			options = false
		}
		if inBody {
			switch {
			case strings.TrimSpace(line) == "":
			case strings.HasPrefix(line, "    "):
				line = line[4:]
			case strings.HasPrefix(line, "\t"):
				line = line[1:]
			default:
				inBody = false
			}
		}
		if code.holds(line) {
			b.WriteString(line)
			blockStart = false
			continue
		}
		if fence, closer, opens, ok := codeShortcodeLine(line); ok && opens == (verbatim == "") && (opens || closer == verbatim) {
			if verbatim = ""; opens {
				verbatim = closer
			}
			if fence != "" {
				b.WriteString(fence + "\n")
			}
			blockStart = true
			continue
		}
		if verbatim != "" {
			b.WriteString(line)
			continue
		}
		kept, title, markup := markupLine(line, closed, blockStart)
		if markup {
			if title != "" {
				b.WriteString(title + "\n")
			}
			inBody = inBody || indentedAdmonition.MatchString(strings.TrimSpace(line))
			options = autodoc.MatchString(strings.TrimSpace(line))
			blockStart = true
			continue
		}
		b.WriteString(kept)
		t := strings.TrimSpace(line)
		blockStart = t == "" || strings.HasPrefix(t, "#")
	}
	return b.String()
}

// codeShortcodeLine reads a line that is only a code shortcode (see
// codeShortcode): the fence it stands for ("```js" opening a highlight,
// "```" closing it, "" for raw), the name of the closing shortcode, and
// whether the line opens the block. ok is false for any other line.
func codeShortcodeLine(line string) (fence, closer string, opens, ok bool) {
	m := codeShortcode.FindStringSubmatch(line)
	switch {
	case m == nil:
		return "", "", false, false
	case m[1] == "raw" || m[1] == "endraw":
		return "", "endraw", m[1] == "raw", true
	case m[1] == "highlight":
		return "```" + m[2], "endhighlight", true, true
	case m[1] == "endhighlight":
		return "```", "endhighlight", false, true
	case m[3] == "/":
		return "```", "/" + m[4], false, true
	}
	return "```" + m[5], "/" + m[4], true, true
}

// markupLine is one line outside code: as kept, or markup (the line was
// only that), with the title the page shows of it. blockStart: the line
// starts a block, where markup of a line of its own may stand.
func markupLine(line string, closed map[string]bool, blockStart bool) (kept, title string, markup bool) {
	t := strings.TrimRight(line, "\r\n")
	lead := strings.TrimLeft(t, " ")
	if len(t)-len(lead) <= 3 {
		switch {
		case strings.HasPrefix(lead, ":::"):
			if m := fencedAdmonition.FindStringSubmatch(lead); m != nil {
				return "", strings.TrimSpace(m[1] + " " + m[2]), true
			}
		case strings.HasPrefix(lead, "///"):
			if m := slashBlock.FindStringSubmatch(lead); m != nil {
				return "", m[1], true
			}
		case strings.HasPrefix(lead, "<"):
			if m := component.FindStringSubmatch(lead); m != nil && isComponent(m, closed) {
				return "", componentLabel(m[2], m[3]), true
			}
		case !blockStart: // the others do not interrupt a paragraph
		case strings.HasPrefix(lead, "!!!") || strings.HasPrefix(lead, "???") || strings.HasPrefix(lead, "==="):
			if m := indentedAdmonition.FindStringSubmatch(lead); m != nil {
				return "", strings.TrimSpace(m[1] + m[2]), true
			}
		case strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "export "):
			if mdxStatement.MatchString(t) {
				return "", "", true
			}
		case strings.HasPrefix(lead, "["):
			if linkDefinition.MatchString(lead) {
				return "", "", true
			}
		}
	}
	if !strings.Contains(t, "{{") && !strings.Contains(t, "{%") {
		return line, "", false
	}
	if m := shortcodeTitle.FindStringSubmatch(t); m != nil {
		return "", m[1], true
	}
	kept = outsideCode(line, func(s string) string { return shortcodeOrTag.ReplaceAllString(s, "") })
	if strings.TrimSpace(kept) == "" {
		return "", "", true
	}
	return kept, "", false
}

// isComponent tells a component's tag from a placeholder written in angle
// brackets (<NAME>, <REMOTE>): a component's tag has attributes, closes
// itself, or is closed further on.
func isComponent(m []string, closed map[string]bool) bool {
	return closed[m[2]] || strings.ContainsAny(m[3], "={") || m[4] == "/"
}

// closedComponents are the names of the components body closes (</Name>).
func closedComponents(body string) map[string]bool {
	out := map[string]bool{}
	for rest := body; ; {
		i := strings.Index(rest, "</")
		if i < 0 {
			return out
		}
		rest = rest[i+2:]
		if j := strings.IndexByte(rest, '>'); j > 0 && rest[0] >= 'A' && rest[0] <= 'Z' {
			out[rest[:j]] = true
		}
	}
}

// componentLabel is what the page shows of a component's opening tag: its
// label or title, or a tab's value; "" for any other.
func componentLabel(name, attrs string) string {
	if m := componentTitle.FindStringSubmatch(attrs); m != nil {
		return m[1] + m[2]
	}
	if strings.HasSuffix(name, "Tab") || strings.HasSuffix(name, "TabItem") {
		if m := tabValue.FindStringSubmatch(attrs); m != nil {
			return m[1] + m[2]
		}
	}
	return ""
}

// outsideCode applies fn to the parts of line outside backtick code spans.
func outsideCode(line string, fn func(string) string) string {
	var b strings.Builder
	for line != "" {
		i := strings.IndexByte(line, '`')
		if i < 0 {
			b.WriteString(fn(line))
			break
		}
		b.WriteString(fn(line[:i]))
		n := i
		for n < len(line) && line[n] == '`' {
			n++
		}
		ticks := line[i:n]
		end := strings.Index(line[n:], ticks)
		if end < 0 {
			b.WriteString(line[i:])
			break
		}
		b.WriteString(line[i : n+end+len(ticks)])
		line = line[n+end+len(ticks):]
	}
	return b.String()
}
