package offline

import "strings"

// The lines of Markdown the engine reads the corpus by, each trimmed of
// its spaces.

// atxHeading: the line is a Markdown heading, one to six "#" and a space
// ("## Care"), not a tag ("#zorp #notes").
func atxHeading(t string) bool {
	n := len(t) - len(strings.TrimLeft(t, "#"))
	return n >= 1 && n <= 6 && (n == len(t) || t[n] == ' ' || t[n] == '\t')
}

// fenceMark: the line opens or closes fenced code ("```go", "~~~").
func fenceMark(t string) bool { return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") }
