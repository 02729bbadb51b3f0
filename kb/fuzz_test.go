package kb

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/adrg/frontmatter"
	"gopkg.in/yaml.v2"
)

// seedBytes is where the seed articles are cut. The mutator grows inputs
// from the seeds, and shorter ones keep each run, and the minimizing of
// each new input, fast; the first lines hold front matter, headings, lists
// and most articles' first code block.
const seedBytes = 1500

// addDocsSeeds adds the project's own articles, the real input, each cut at
// a line end near seedBytes.
func addDocsSeeds(f *testing.F, add func(data []byte)) {
	paths, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no articles in ../docs: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) > seedBytes {
			data = data[:bytes.LastIndexByte(data[:seedBytes], '\n')+1]
		}
		add(data)
	}
}

var hostileBodies = []string{
	"", "#", "# ", "#\n#\n", "####### seven", "# A #", "# A\n## B\n#### D\ntext", "## skip\ntext",
	"```", "```\n# not a heading", "~~~\n```\n~~~\n# H\ntext", "````\n```\n````\nafter", "```go\n\n\n```",
	"\r\n# A\r\n\r\ntext\r\n", "text\n\n\n\n", "  indented\n\t\ttabs\n", "\x00\xff\xfe", "# \xff\n\xfe",
	"# A\nA", "# A\n\n# A\n\nA\n\nA", strings.Repeat("word ", 700), strings.Repeat("p\n\n", 900),
	"# A\n```\n" + strings.Repeat("code\n", 600) + "```", "\v\f\n# x\n\u00a0\n", "```\nunclosed\n\n",
	"Setup\n=====\ntext\nUsage\n---\n- item\n---\n\n---\n", "two\nlines\n===\n```\nx\n---\n```\n", "---\na: b\n---\n",
}

func FuzzChunkDoc(f *testing.F) {
	addDocsSeeds(f, func(data []byte) { f.Add(string(data)) })
	for _, b := range hostileBodies {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body string) {
		text := Doc{Body: body}.Text() // what is indexed: the body without its comments
		secs := sections(text)
		lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
		covered := blocksInOrder(t, secs, lines)
		maybeHeading := underlined(lines)
		for i, line := range lines {
			if !covered[i] && strings.TrimSpace(line) != "" && !headingRe.MatchString(line) && !maybeHeading[i] {
				t.Fatalf("line %d %q is in no chunk", i, line)
			}
		}
		chunks := chunkDoc(Doc{KBID: "k", Body: body})
		checkChunks(t, secs, chunks)
		if again := chunkDoc(Doc{KBID: "k", Body: body}); fmt.Sprint(again) != fmt.Sprint(chunks) {
			t.Fatal("chunking is not deterministic")
		}
	})
}

// underlined marks the lines of underlined headings, each underline and
// the paragraph lines above it, read as sections does (underlinedHeading)
// from runs of lines between blank lines, "#" headings and fences; a run
// goes on after its heading. Lines in a fence may be marked too: a block
// in a fence opens with the fence, which never is.
func underlined(lines []string) []bool {
	out := make([]bool, len(lines))
	start, paragraph := 0, true
	for i, line := range lines {
		t := strings.TrimSpace(line)
		switch {
		case t == "" || headingRe.MatchString(line) || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			start, paragraph = i+1, true
		case paragraph && i > start && underlineRe.MatchString(line):
			for j := start; j <= i; j++ {
				out[j] = true
			}
			start = i + 1
		default:
			paragraph = paragraph && !notParagraph.MatchString(line)
		}
	}
	return out
}

// blocksInOrder checks that every block is a run of the body's lines,
// trimmed, the runs following each other in the body's order, and returns
// which lines they cover. A run never opens with a heading line: a block
// opens with a fence or a line of text.
func blocksInOrder(t *testing.T, secs []section, lines []string) []bool {
	covered := make([]bool, len(lines))
	heading := underlined(lines)
	next := 0
	for _, s := range secs {
		if len(s.blocks) == 0 {
			t.Fatalf("section %q has no text", s.path)
		}
		for _, b := range s.blocks {
			if b == "" || b != strings.TrimSpace(b) {
				t.Fatalf("block %q is empty or untrimmed", b)
			}
			n := strings.Count(b, "\n") + 1
			start := -1
			for i := next; i+n <= len(lines) && start < 0; i++ {
				if !headingRe.MatchString(lines[i]) && !heading[i] && strings.TrimSpace(strings.Join(lines[i:i+n], "\n")) == b {
					start = i
				}
			}
			if start < 0 {
				t.Fatalf("block %q is not a run of lines after line %d", b, next)
			}
			for i := start; i < start+n; i++ {
				covered[i] = true
			}
			next = start + n
		}
	}
	return covered
}

// checkChunks checks that the chunks are the sections' blocks, packed in
// order without loss, each under its heading path.
func checkChunks(t *testing.T, secs []section, chunks []chunk) {
	n := 0
	for _, s := range secs {
		heading := strings.Join(s.path, " > ")
		want := strings.Join(s.blocks, "\n\n")
		var pieces []string
		// Sections may share a heading path, so a section takes the chunks
		// that add up to its text.
		for size := -2; n < len(chunks) && size < len(want); n++ {
			c := chunks[n]
			if c.Heading != heading {
				t.Fatalf("chunk %d has heading %q, its section %q", n, c.Heading, heading)
			}
			if c.ID != fmt.Sprintf("k#%d", n) {
				t.Fatalf("chunk %d has ID %q", n, c.ID)
			}
			piece := c.Text
			if heading != "" {
				var ok bool
				if piece, ok = strings.CutPrefix(c.Text, heading+"\n\n"); !ok {
					t.Fatalf("chunk %q does not open with its heading %q", c.Text, heading)
				}
			}
			if len(piece) > maxChunkChars && !slices.Contains(s.blocks, piece) && !announcedBlock(s.blocks, piece) {
				t.Fatalf("chunk of %d characters holds more than one block, or more than a block and the one announcing it", len(piece))
			}
			if c.HasCode != (strings.Contains(c.Text, "```") || strings.Contains(c.Text, "~~~")) {
				t.Fatalf("chunk %q: has_code %t", c.Text, c.HasCode)
			}
			pieces = append(pieces, piece)
			size += len(piece) + 2
		}
		if got := strings.Join(pieces, "\n\n"); got != want {
			t.Fatalf("section %q: chunks %q, blocks %q", heading, got, want)
		}
	}
	if n != len(chunks) {
		t.Fatalf("%d chunks, %d accounted for by sections", len(chunks), n)
	}
}

func FuzzParseDoc(f *testing.F) {
	addDocsSeeds(f, func(data []byte) { f.Add(data) })
	for _, s := range []string{
		"", "---", "---\n", "---\n---\n", "---\ntitle: [unclosed\n---\ntext", "---\ntags: 5\n---\n",
		"---\ntitle: {a: b}\n---\n", "---\nkb_id: \"\\x\"\n---\n", "---\n\t- tab\n---\n", "---\n&a [*a]\n---\n",
		"---\na: &a [*a, *a, *a, *a]\nb: &b [*a, *a, *a, *a]\nc: [*b, *b, *b, *b]\n---\n", "---\n!!binary x\n---\n",
		"+++\ntitle = \"t\"\n+++\nbody", "+++\ntitle = \n+++\n", ";;;\n{\"title\": 1}\n;;;\n", "{\n\"title\": \"j\"\n}\n\nbody",
		"{\n", "---yaml\ntitle: y\n---\n", "---toml\n[[[\n---\n", "---json\n{]\n---\n", "\n\n---\ntitle: late\n---\n",
		"\xef\xbb\xbf---\ntitle: bom\n---\n", "---\r\ntitle: crlf\r\n---\r\nbody", "---\ntitle: " + strings.Repeat("[", 5000) + "\n---\n",
		"---\n" + strings.Repeat("- ", 3000) + "\n---\n", "\x00\xff---",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := parseDoc("dir/name.md", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "dir/name.md: front matter: ") {
				t.Fatalf("error %q does not name the file and the front matter", err)
			}
			return
		}
		if !bytes.HasSuffix(data, []byte(d.Body)) {
			t.Fatalf("body %q is not what follows the front matter of %q", d.Body, data)
		}
		sum := sha256.Sum256(data)
		if d.Hash != hex.EncodeToString(sum[:]) {
			t.Fatal("hash is not the file's SHA-256")
		}
		if d.KBID == "" || d.Title == "" || d.KBID != strings.TrimSpace(d.KBID) || d.Title != strings.TrimSpace(d.Title) {
			t.Fatalf("kb_id %q, title %q: empty or untrimmed", d.KBID, d.Title)
		}
		if d.Path != "dir/name.md" {
			t.Fatalf("path %q", d.Path)
		}
		chunkDoc(d)
	})
}

// FuzzFrontMatter: the front matter found over the file in memory is what
// the parser finds reading it, and so is the body after it.
func FuzzFrontMatter(f *testing.F) {
	for _, s := range []string{
		"---\ntitle: t\n---\nbody\nmore", "---\ntitle: t\n---\n", "---\ntitle: t\n---", "\n\n---\ntags: [a, b]\n---\n# H\n",
		"{\n\"title\": \"j\"\n}\n\nbody", "{\n\"title\": \"j\"\n}\nx\n}\n\nbody", "+++\ntitle = \"t\"\n+++\nbody",
		"---\ntitle: [unclosed\n---\ntext", "no front matter\n---\ntitle: x\n---\n", "---\ntitle: a\n---x\n---\nbody",
		"---\r\ntitle: crlf\r\n---\r\nbody", "---\nkb_id: k\nurl: u\n---\n\n", "---", "---\n", " --- \n\t---\t", "",
		"\n \n", "---\ntitle: open", "\u00a0---\u0085\n---\n", ";;;\n{\"title\": 1}\n;;;\n", "---yaml\ntitle: y\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want, got frontMatter
		wantBody, wantErr := frontmatter.Parse(bytes.NewReader(data), &want)
		gotBody, gotErr := newDocReader().parseFrontMatter(data, &got)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("%q: error %v, want %v", data, gotErr, wantErr)
		}
		if gotErr == nil && (!bytes.Equal(gotBody, wantBody) || !reflect.DeepEqual(got, want)) {
			t.Fatalf("%q: %+v %q, want %+v %q", data, got, gotBody, want, wantBody)
		}
	})
}

// FuzzPlainFrontMatter: front matter decoded without the YAML parser is
// what the parser decodes from it.
func FuzzPlainFrontMatter(f *testing.F) {
	addDocsSeeds(f, func(data []byte) {
		if head, _, kind := splitFrontMatter(data); kind == yamlFrontMatter {
			f.Add(head)
		}
	})
	for _, s := range []string{
		"title: a\nkb_id: b\nurl: https://x/y?z=1#f\ntags: [a, b c, d-e]\n", "tags: []\n", "tags: [ ]\n", "tags: [a,]\n",
		"title: a # c\n", "title: a: b\n", "title: a:\n", "title: 'q'\n", "title: null\n", "title: ~\n", "title: 12\n",
		"title: yes\n", "title: 1e3\n", "title: 2001-12-14\n", "tags: [1, true, ~]\n", "tags: [a:b]\n", "title:  x  \n",
		"title: a\ntitle: b\n", "other: x\n", " title: x\n", "title: x\n  more\n", "title: x\r\n", "title: \u00a0x\u2028\n",
		"title: Настройка фильтра\n", "title: a\n\n\nkb_id: c", "title: <<\n", "title: x!y&z*\n", "tags: [\"a\"]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		var got, want frontMatter
		if !decodePlainFrontMatter(head, &got) {
			return
		}
		if err := yaml.Unmarshal(head, &want); err != nil {
			t.Fatalf("%q: decoded as %+v, the parser fails: %v", head, got, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: %#v, the parser gives %#v", head, got, want)
		}
	})
}

// The project's own articles are decoded without the YAML parser, and the
// hostile cases are left to it.
func TestPlainFrontMatter(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no articles in ../docs: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		head, _, kind := splitFrontMatter(data)
		var fm frontMatter
		if kind != yamlFrontMatter || !decodePlainFrontMatter(head, &fm) || fm.Title == "" || len(fm.Tags) == 0 {
			t.Errorf("%s: front matter %q not decoded without the parser: %+v", p, head, fm)
		}
	}
	for _, head := range []string{"title: a # c\n", "title: 'q'\n", "title: null\n", "tags: [a,]\n", "title: a\ntitle: b\n",
		" title: x\n", "title: x\r\n", "tags:\n- a\n", "title: x\n  more\n", "tags: [a:b]\n", "other: x\n"} {
		var fm frontMatter
		if decodePlainFrontMatter([]byte(head), &fm) {
			t.Errorf("%q decoded as %+v without the parser", head, fm)
		}
	}
}

// announcedBlock: piece is a block that announces the next ("…:") and that
// next block.
func announcedBlock(blocks []string, piece string) bool {
	for i := 0; i+1 < len(blocks); i++ {
		if strings.HasSuffix(blocks[i], ":") && piece == blocks[i]+"\n\n"+blocks[i+1] {
			return true
		}
	}
	return false
}
