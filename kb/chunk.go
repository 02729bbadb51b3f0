package kb

import (
	"regexp"
	"strconv"
	"strings"
)

// maxChunkChars is where a long section is split at a paragraph boundary.
const maxChunkChars = 1500

var headingRe = regexp.MustCompile(`^(#{1,6})\s+(.+?)\s*#*\s*$`)

// chunk is one indexed piece of an article.
type chunk struct {
	ID      string // <kb_id>#<n>, shown to users
	Heading string // heading path, "A > B"
	Text    string
	HasCode bool
}

// fence tracks whether a line is inside a fenced code block.
type fence struct {
	open   bool
	marker string
}

// toggle reports whether line opens or closes a fence, and updates the state.
func (f *fence) toggle(line string) bool {
	t := strings.TrimSpace(line)
	for _, m := range []string{"```", "~~~"} {
		if !strings.HasPrefix(t, m) {
			continue
		}
		run := len(t) - len(strings.TrimLeft(t, m[:1]))
		marker := t[:run]
		switch {
		case !f.open:
			f.open, f.marker = true, marker
			return true
		case strings.HasPrefix(marker, f.marker) && strings.TrimSpace(t[run:]) == "":
			f.open, f.marker = false, ""
			return true
		}
	}
	return false
}

// section is the text under one heading, as blocks: paragraphs and whole
// fenced code blocks.
type section struct {
	path   []string
	blocks []string
}

// chunkDoc cuts an article into chunks at its headings.
func chunkDoc(d Doc) []chunk {
	var chunks []chunk
	for _, s := range sections(d.Text()) {
		heading := strings.Join(s.path, " > ")
		for _, text := range pack(s.blocks) {
			if heading != "" {
				text = heading + "\n\n" + text
			}
			chunks = append(chunks, chunk{ID: d.KBID + "#" + strconv.Itoa(len(chunks)), Heading: heading, Text: text,
				HasCode: strings.Contains(text, "```") || strings.Contains(text, "~~~")})
		}
	}
	return chunks
}

func sections(body string) []section {
	var out []section
	cur := section{}
	var block []string
	var f fence
	flush := func() {
		if b := strings.TrimSpace(strings.Join(block, "\n")); b != "" {
			cur.blocks = append(cur.blocks, b)
		}
		block = block[:0]
	}
	for _, line := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n") {
		wasOpen := f.open
		if f.toggle(line) {
			if !wasOpen {
				flush()
			}
			block = append(block, line)
			if wasOpen {
				flush()
			}
			continue
		}
		if f.open {
			block = append(block, line)
			continue
		}
		if m := headingRe.FindStringSubmatch(line); m != nil {
			flush()
			if len(cur.blocks) > 0 {
				out = append(out, cur)
			}
			level := len(m[1])
			path := append([]string{}, cur.path[:min(level-1, len(cur.path))]...)
			cur = section{path: append(path, m[2])}
			continue
		}
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		block = append(block, line)
	}
	flush()
	if len(cur.blocks) > 0 {
		out = append(out, cur)
	}
	return out
}

// pack joins blocks into texts of at most maxChunkChars, never cutting a
// block. A block that announces the next ("Here is a feature list:") goes
// with it into the next text, not last into this one, and a text of that
// block alone takes the next one whatever its size: apart, one chunk would
// say a list follows and another hold it with nothing to say what it is.
func pack(blocks []string) []string {
	var out []string
	var cur []string
	size := 0
	for _, b := range blocks {
		announces := len(cur) > 0 && strings.HasSuffix(cur[len(cur)-1], ":")
		if len(cur) > 0 && size+len(b)+2 > maxChunkChars && (len(cur) > 1 || !announces) {
			var carried []string
			if n := len(cur); announces {
				cur, carried = cur[:n-1], cur[n-1:]
			}
			out = append(out, strings.Join(cur, "\n\n"))
			cur, size = carried, 0
			for _, c := range carried {
				size += len(c)
			}
		}
		if len(cur) > 0 {
			size += 2
		}
		cur = append(cur, b)
		size += len(b)
	}
	if len(cur) > 0 {
		out = append(out, strings.Join(cur, "\n\n"))
	}
	return out
}
