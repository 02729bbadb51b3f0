package main

import (
	"fmt"
	"regexp"
	"strings"
)

// ANSI styles of the terminal rendering.
const (
	ansiBold  = "\x1b[1m"
	ansiCode  = "\x1b[36m"
	ansiReset = "\x1b[0m"
)

// markdownMode says how answers are printed: rendered for a person at a
// terminal, raw Markdown for a program reading a pipe.
type markdownMode string

const (
	markdownAuto   markdownMode = "auto" // rendered on a terminal without NO_COLOR, raw otherwise
	markdownRender markdownMode = "render"
	markdownRaw    markdownMode = "raw"
)

// rendered decides for auto: terminal is whether the output is one, and
// noColor the NO_COLOR variable (https://no-color.org), which any
// non-empty value sets.
func (m markdownMode) rendered(terminal bool, noColor string) (bool, error) {
	switch m {
	case markdownAuto, "":
		return terminal && noColor == "", nil
	case markdownRender:
		return true, nil
	case markdownRaw:
		return false, nil
	}
	return false, fmt.Errorf("--markdown: %q is not auto, render or raw", string(m))
}

var (
	inlineCode = regexp.MustCompile("`([^`\n]+)`")
	boldText   = regexp.MustCompile(`\*\*([^*\n]+)\*\*|__([^_\n]+)__`)
	linkText   = regexp.MustCompile(`\[([^\]\n]+)\]\(([^)\s]+)\)`)
	heading    = regexp.MustCompile(`^#{1,6}\s+(.*)$`)
	bullet     = regexp.MustCompile(`^(\s*)[-*+]\s+(.*)$`)
)

// renderMarkdown shows the Markdown an answer uses as formatted terminal
// text: headings and **bold** in bold, `code` in colour, list bullets as
// •, links as "text (url)", fenced code indented and left as written.
// Text in code is never read as Markdown.
func renderMarkdown(md string) string {
	lines := strings.Split(md, "\n")
	inFence := false
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			lines[i] = ""
			continue
		}
		if inFence {
			lines[i] = "    " + ansiCode + line + ansiReset
			continue
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			lines[i] = ansiBold + stripEmphasis(m[1]) + ansiReset
			continue
		}
		if m := bullet.FindStringSubmatch(line); m != nil {
			line = m[1] + "• " + m[2]
		}
		lines[i] = inline(line)
	}
	return strings.Join(lines, "\n")
}

// inline styles one line; code spans first, so that their text is kept.
func inline(line string) string {
	var b strings.Builder
	for {
		loc := inlineCode.FindStringSubmatchIndex(line)
		if loc == nil {
			b.WriteString(emphasis(line))
			return b.String()
		}
		b.WriteString(emphasis(line[:loc[0]]))
		b.WriteString(ansiCode + line[loc[2]:loc[3]] + ansiReset)
		line = line[loc[1]:]
	}
}

func emphasis(s string) string {
	s = linkText.ReplaceAllString(s, "$1 ($2)")
	return boldText.ReplaceAllStringFunc(s, func(m string) string {
		return ansiBold + m[2:len(m)-2] + ansiReset
	})
}

func stripEmphasis(s string) string {
	return boldText.ReplaceAllStringFunc(inlineCode.ReplaceAllString(s, "$1"), func(m string) string { return m[2 : len(m)-2] })
}
