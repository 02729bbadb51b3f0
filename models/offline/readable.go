package offline

import (
	"regexp"
	"strings"
)

// What Markdown and MDX put in a line for the site that shows it, which a
// quoted sentence has no use for: a link into the site's own pages, whose
// address means nothing outside it ("[recover your profile](/technical-
// support/recover)"), a tag of HTML ("<br />", "<kbd>libfuse</kbd>") and
// a reference link's label ("[the guide][guide]"), a task list's box
// ("[x] Mobile: Settings") and a footnote's mark
// ("mute/unmute[^1]"), whose note the line does not carry. A link to a
// full address stays, as a reader can follow it; so does an address in
// angle brackets.
var (
	siteLink = regexp.MustCompile(`\[([^\[\]]+)\]\((?:[^()\s:]*)(?:\s+"[^"]*")?\)`)
	// A reference link ("[Creating a new site][]", "[the guide][guide]")
	// is its words: its address is defined on a line the page never shows.
	referenceLink = regexp.MustCompile(`\[([^\[\]]+)\]\[[^\[\]]*\]`)
	htmlTag       = regexp.MustCompile(`</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>`)
	// A script or a style is no text at all: it goes with its tags.
	scriptTag = regexp.MustCompile(`(?is)<script\b[^>]*>.*?</script\s*>|<style\b[^>]*>.*?</style\s*>`)
	taskBox   = regexp.MustCompile(`^\[[ xX]\]\s+`)
	// A footnote's mark, or the one that opens its note.
	footnote = regexp.MustCompile(`^\[\^[^\[\]\s]+\]:\s*|\s*\[\^[^\[\]\s]+\]`)
)

// readable is a line as it reads quoted: the site's links as their words,
// no tags, no task box.
func readable(line string) string {
	if !strings.ContainsAny(line, "[<") {
		return line // most lines: nothing to read again
	}
	line = taskBox.ReplaceAllString(line, "")
	line = footnote.ReplaceAllString(line, "")
	line = siteLink.ReplaceAllString(line, "$1")
	line = referenceLink.ReplaceAllString(line, "$1")
	if strings.Contains(line, "<") {
		line = strings.Join(strings.Fields(htmlTag.ReplaceAllString(scriptTag.ReplaceAllString(line, " "), " ")), " ")
	}
	return line
}
