package kb

import (
	"bytes"

	"github.com/adrg/frontmatter"
	"gopkg.in/yaml.v2"
)

// parseFrontMatter is frontmatter.Parse over data: the front matter decoded
// into fm, and the body after it. YAML front matter between "---" lines,
// the only kind an article of ours has, is found here over data itself:
// the parser copies every line it reads into a buffer of its own, and the
// rest of the file after them, to cut a few lines off the top of a file
// that is in memory already. The other kinds it knows go to it.
func (r *docReader) parseFrontMatter(data []byte, fm *frontMatter) ([]byte, error) {
	head, body, kind := splitFrontMatter(data)
	switch kind {
	case noFrontMatter:
		return data, nil
	case yamlFrontMatter:
		if decodePlainFrontMatter(head, fm) {
			return body, nil
		}
		if err := yaml.Unmarshal(head, fm); err != nil {
			return nil, err
		}
		return body, nil
	}
	r.br.Reset(bytes.NewReader(data))
	return frontmatter.Parse(r.br, fm)
}

// What splitFrontMatter found at the top of a file.
const (
	noFrontMatter    = iota
	yamlFrontMatter  // between "---" lines
	otherFrontMatter // another kind frontmatter.Parse knows: TOML, JSON, "---yaml"
)

// splitFrontMatter cuts data as frontmatter.Parse does: it reads lines
// (each ending in '\n', the last one perhaps not) and compares each one
// without its surrounding spaces. Blank lines before the front matter are
// skipped; the first other line opens it if it is a start mark, and is not
// taken for one when it is the file's last line. The front matter runs to
// the next "---" line, which may be the last; with none, there is none, and
// the body is the whole file.
func splitFrontMatter(data []byte) (head, body []byte, kind int) {
	pos := 0
	for {
		line, next, last := lineAt(data, pos)
		if last {
			return nil, data, noFrontMatter
		}
		pos = next
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		if string(t) == "---" {
			break
		}
		switch string(t) {
		case "---yaml", "+++", "---toml", ";;;", "---json", "{":
			return nil, nil, otherFrontMatter
		}
		return nil, data, noFrontMatter
	}
	start := pos
	for {
		line, next, last := lineAt(data, pos)
		if string(bytes.TrimSpace(line)) == "---" {
			return data[start:pos], data[next:], yamlFrontMatter
		}
		if last {
			return nil, data, noFrontMatter
		}
		pos = next
	}
}

// lineAt is the line of data that starts at pos, with its '\n', where the
// next one starts, and whether it is the last: it has no '\n' (it may be
// empty), as bufio.Reader.ReadBytes reports io.EOF with it.
func lineAt(data []byte, pos int) (line []byte, next int, last bool) {
	i := bytes.IndexByte(data[pos:], '\n')
	if i < 0 {
		return data[pos:], len(data), true
	}
	return data[pos : pos+i+1], pos + i + 1, false
}
