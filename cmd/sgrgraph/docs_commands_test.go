package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shellBlock is a sh block of a document.
var shellBlock = regexp.MustCompile("(?s)```sh\n(.*?)```")

// TestDocsCommandsParse: every sgrgraph command line in the README's and
// the docs' shell blocks names a command that exists, with flags it has
// and values they take, so a page cannot keep a flag that was renamed.
func TestDocsCommandsParse(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	checked := 0
	for _, doc := range append(docs, "../../README.md") {
		data, err := os.ReadFile(doc)
		require.NoError(t, err)
		for _, block := range shellBlock.FindAllStringSubmatch(string(data), -1) {
			for _, line := range joinContinuations(block[1]) {
				args := commandWords(line)
				if len(args) == 0 || args[0] != "sgrgraph" {
					continue
				}
				checked++
				root := newRootCmd(io.Discard, io.Discard)
				cmd, rest, err := root.Find(args[1:])
				if !assert.NoError(t, err, "%s: %s", doc, line) {
					continue
				}
				assert.NotEqual(t, root, cmd, "%s: %s names no command", doc, line)
				assert.NoError(t, cmd.ParseFlags(rest), "%s: %s", doc, line)
			}
		}
	}
	assert.Greater(t, checked, 20, "the docs' command lines were found")
}

// joinContinuations joins lines ending in a backslash and trims each.
func joinContinuations(block string) []string {
	var lines []string
	var cur strings.Builder
	for _, l := range strings.Split(block, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasSuffix(l, "\\") {
			cur.WriteString(strings.TrimSuffix(l, "\\") + " ")
			continue
		}
		cur.WriteString(l)
		lines = append(lines, cur.String())
		cur.Reset()
	}
	return lines
}

// commandWords splits a shell line into words as a shell would for the
// simple lines docs hold: leading VAR=value assignments dropped, quotes
// removed, and the line cut at a comment, pipe, redirection, list or
// background operator.
func commandWords(line string) []string {
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	flush := func() {
		if inWord {
			words = append(words, w.String())
		}
		w.Reset()
		inWord = false
	}
loop:
	for _, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				w.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			flush()
		case strings.ContainsRune("#|;&<>", r):
			break loop
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	flush()
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") {
		words = words[1:]
	}
	return words
}
