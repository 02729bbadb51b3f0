package kb

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"
)

// Doc is one Markdown article as loaded from disk.
type Doc struct {
	// Path is the file's path relative to the knowledge-base root, with slashes.
	Path  string
	KBID  string
	Title string
	URL   string
	Tags  []string
	// Body is the Markdown without front matter.
	Body string
	// Hash is the SHA-256 of the whole file, to find changed files.
	Hash string
	// byFile: KBID is named after the file (nameByFiles), the front
	// matter gives none.
	byFile bool
}

type frontMatter struct {
	Title string   `yaml:"title"`
	KBID  string   `yaml:"kb_id"`
	URL   string   `yaml:"url"`
	Tags  []string `yaml:"tags"`
}

// ErrSkipped marks a file that was deliberately not loaded: not a regular
// file (a named pipe, a device, a socket, a directory), or reached through a
// symbolic link that leads out of the knowledge base.
var ErrSkipped = errors.New("skipped")

// LoadOptions tune loading a folder.
type LoadOptions struct {
	// FollowExternalLinks loads Markdown files reached through symbolic
	// links that point out of the folder. Without it such links are skipped,
	// so that a link cannot make any file on the machine searchable.
	FollowExternalLinks bool
}

// LoadDir is LoadDirContext with default options and no cancellation.
func LoadDir(dir string) ([]Doc, []error) {
	return LoadDirContext(context.Background(), dir, LoadOptions{})
}

// LoadDirContext loads every article (IsArticle) that is a regular file
// under dir. A file that fails is returned as an error naming it, and one
// skipped on purpose as an error wrapping ErrSkipped; the others are
// loaded. Links inside the folder are followed, links out of it only with
// FollowExternalLinks. When ctx ends, loading stops and only ctx's error is
// returned, never a partial set of articles that a Sync would take for the
// whole knowledge base.
func LoadDirContext(ctx context.Context, dir string, opts LoadOptions) ([]Doc, []error) {
	fail := func(err error) ([]Doc, []error) {
		return nil, []error{fmt.Errorf("knowledge base %s: %w", dir, err)}
	}
	info, err := os.Stat(dir)
	if err != nil {
		return fail(err)
	}
	if !info.IsDir() {
		return fail(errors.New("not a directory"))
	}
	root, err := filepath.Abs(dir)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return fail(err)
	}
	l := &dirLoader{ctx: ctx, root: root, opts: opts, reader: newDocReader()}
	err = filepath.WalkDir(root, l.visit)
	if cerr := ctx.Err(); cerr != nil {
		return fail(fmt.Errorf("loading stopped: %w", cerr))
	}
	if err != nil {
		return fail(err)
	}
	for i, e := range l.errs {
		l.errs[i] = fmt.Errorf("%s: %w", filepath.Clean(dir), e)
	}
	sortDocs(l.docs)
	return l.docs, l.errs
}

// dirLoader collects the articles of one folder as filepath.WalkDir visits it.
type dirLoader struct {
	ctx    context.Context
	root   string
	opts   LoadOptions
	reader *docReader
	docs   []Doc
	errs   []error
}

func (l *dirLoader) visit(p string, d fs.DirEntry, err error) error {
	if cerr := l.ctx.Err(); cerr != nil {
		return cerr
	}
	rel := l.rel(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // removed while the folder was read: not part of it any more
	case err != nil:
		l.errs = append(l.errs, fmt.Errorf("%s: %w", rel, err))
		return nil
	case d.IsDir() && p != l.root && SkipsFolder(d.Name()):
		return filepath.SkipDir
	case d.IsDir() || !IsArticle(p):
		return nil
	}
	doc, err := l.load(p, rel, d.Type())
	switch {
	case err == nil:
		l.docs = append(l.docs, doc)
	case !gone(p):
		l.errs = append(l.errs, err)
	}
	return nil
}

// gone reports whether p was removed while the folder was read: then it is
// not part of the knowledge base any more, and not an error.
func gone(p string) bool {
	_, err := os.Lstat(p)
	return errors.Is(err, fs.ErrNotExist)
}

func (l *dirLoader) load(p, rel string, mode fs.FileMode) (Doc, error) {
	source, err := l.source(p, rel, mode)
	if err != nil {
		return Doc{}, err
	}
	data, err := l.reader.readRegular(source)
	if err != nil {
		return Doc{}, fmt.Errorf("%s: %w", rel, err)
	}
	return l.reader.parse(rel, data)
}

func (l *dirLoader) rel(p string) string {
	r, err := filepath.Rel(l.root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}

// source is the path to read for the entry at p, or why it is not read.
func (l *dirLoader) source(p, rel string, mode fs.FileMode) (string, error) {
	if mode.IsRegular() {
		return p, nil
	}
	if mode&fs.ModeSymlink == 0 {
		return "", fmt.Errorf("%s: %s, not a regular file: %w", rel, kind(mode), ErrSkipped)
	}
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", fmt.Errorf("%s: broken link: %w", rel, err)
	}
	if !l.opts.FollowExternalLinks && !within(l.root, target) {
		return "", fmt.Errorf("%s: link to %s, outside the knowledge base, not followed: %w", rel, target, ErrSkipped)
	}
	info, err := os.Stat(target)
	if err != nil {
		return "", fmt.Errorf("%s: %w", rel, err)
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s: link to %s, %s, not a regular file: %w", rel, target, kind(info.Mode()), ErrSkipped)
	}
	return target, nil
}

func within(root, target string) bool {
	r, err := filepath.Rel(root, target)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

func kind(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "directory"
	case mode&fs.ModeSymlink != 0:
		return "symbolic link"
	case mode&fs.ModeNamedPipe != 0:
		return "named pipe"
	case mode&fs.ModeSocket != 0:
		return "socket"
	case mode&fs.ModeCharDevice != 0:
		return "character device"
	case mode&fs.ModeDevice != 0:
		return "device"
	default:
		return "special file"
	}
}

// readRegular reads a regular file. The open cannot block even if the path
// has turned into a named pipe since it was listed (O_NONBLOCK), and the type
// is checked again on the opened file.
func (r *docReader) readRegular(p string) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s, not a regular file: %w", kind(info.Mode()), ErrSkipped)
	}
	return r.read(f, info.Size())
}

// LoadFS is LoadFSContext without cancellation.
func LoadFS(fsys fs.FS, root string) ([]Doc, []error) {
	return LoadFSContext(context.Background(), fsys, root)
}

// LoadFSContext loads every article (IsArticle) that is a regular file
// under root in fsys, so that an embedded folder serves as a knowledge base
// too. Entries of other types are skipped and reported, as LoadDirContext
// does; an fs.FS cannot say where a link leads, so links are skipped too.
// When ctx ends, only its error is returned.
func LoadFSContext(ctx context.Context, fsys fs.FS, root string) ([]Doc, []error) {
	var docs []Doc
	var errs []error
	r := newDocReader()
	walkErr := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if d.IsDir() && p != root && SkipsFolder(d.Name()) {
			return fs.SkipDir
		}
		if d.IsDir() || !IsArticle(p) {
			return nil
		}
		rel := strings.TrimPrefix(p, root+"/")
		if !d.Type().IsRegular() {
			errs = append(errs, fmt.Errorf("%s: %s, not a regular file: %w", rel, kind(d.Type()), ErrSkipped))
			return nil
		}
		data, err := r.readFS(fsys, p)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		doc, err := r.parse(rel, data)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		docs = append(docs, doc)
		return nil
	})
	if err := ctx.Err(); err != nil {
		return nil, []error{fmt.Errorf("loading stopped: %w", err)}
	}
	if walkErr != nil {
		errs = append(errs, walkErr)
	}
	sortDocs(docs)
	return docs, errs
}

// SkipsFolder reports whether a folder of this name inside a knowledge
// base is left out, with everything in it: a hidden one (.git, .github,
// .vitepress), whose pages are the repository's or the site's, not its
// readers', and node_modules, the READMEs of a site's packages.
func SkipsFolder(name string) bool {
	return strings.HasPrefix(name, ".") && name != "." && name != ".." || name == "node_modules"
}

// markdownExtensions are the extensions of the files a knowledge base is
// read from: Markdown, as most documentation sites write it, and MDX,
// Markdown with components (markup.go), as Docusaurus and Nextra sites do.
var markdownExtensions = []string{".md", ".markdown", ".mdx"}

// IsArticle reports whether the file at p is an article of a knowledge
// base: a Markdown file by its extension (any case), not a hidden one
// (.notes.md).
func IsArticle(p string) bool {
	name := path.Base(filepath.ToSlash(p))
	if strings.HasPrefix(name, ".") {
		return false
	}
	ext := path.Ext(name)
	for _, e := range markdownExtensions {
		if strings.EqualFold(ext, e) {
			return true
		}
	}
	return false
}

// sortDocs puts the articles of a load in the order of their paths, and
// names those their front matter does not (nameByFiles).
func sortDocs(docs []Doc) {
	sort.Slice(docs, func(i, j int) bool { return docs[i].Path < docs[j].Path })
	nameByFiles(docs)
}

// docReader reads and parses the articles of one load in turn, through the
// same buffers: an article's bytes are garbage once it is parsed, and a
// knowledge base is read at every start.
type docReader struct {
	file bytes.Buffer  // the article being read
	br   *bufio.Reader // the front matter parser's reader, which it takes as it is
}

func newDocReader() *docReader {
	// frontmatter.Parse wraps what it is given in a bufio.Reader of 4 KB,
	// unless it is one of at least that size.
	return &docReader{br: bufio.NewReaderSize(nil, 4096)}
}

// read reads f whole, of size bytes as it was last seen; the bytes are
// good until the next read.
func (r *docReader) read(f io.Reader, size int64) ([]byte, error) {
	r.file.Reset()
	// Room for the whole file, and for the read that finds its end, so
	// that the buffer is grown at most once per file rather than in steps.
	r.file.Grow(int(max(0, min(size, 1<<30))) + bytes.MinRead)
	if _, err := r.file.ReadFrom(f); err != nil {
		return nil, err
	}
	return r.file.Bytes(), nil
}

// readFS is fs.ReadFile into r's buffer.
func (r *docReader) readFS(fsys fs.FS, p string) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64 // unknown: the buffer grows as it is read
	if info, err := f.Stat(); err == nil {
		size = info.Size()
	}
	return r.read(f, size)
}

// parseDoc parses one article's file.
func parseDoc(p string, data []byte) (Doc, error) { return newDocReader().parse(p, data) }

func (r *docReader) parse(p string, data []byte) (Doc, error) {
	var fm frontMatter
	body, err := r.parseFrontMatter(data, &fm)
	if err != nil {
		return Doc{}, fmt.Errorf("%s: front matter: %w%s", p, err, frontMatterHint(err))
	}
	sum := sha256.Sum256(data)
	short, _ := fileID(p)
	doc := Doc{Path: p, KBID: strings.TrimSpace(fm.KBID), Title: strings.TrimSpace(fm.Title), URL: fm.URL,
		Tags: fm.Tags, Body: string(body), Hash: hex.EncodeToString(sum[:])}
	if doc.KBID == "" {
		// The file's; nameByFiles may lengthen it once every article of
		// the load is read.
		doc.KBID, doc.byFile = short, true
	}
	if doc.Title == "" {
		doc.Title = firstHeading(doc.Text())
	}
	if doc.Title == "" {
		doc.Title = titleOf(short)
	}
	return doc, nil
}

// firstHeading is the text of the article's first heading of the first
// level: a "# " line, or a line underlined with "=", else an HTML <h1>
// (a page that opens with a centred logo and name writes one).
func firstHeading(body string) string {
	var code fence
	var paragraph []string    // the lines of the paragraph above, for an underline
	plain := true             // none of them is notParagraph
	var prose strings.Builder // the text outside code, for an <h1>
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimRight(line, "\r")
		if code.holds(line) {
			paragraph, plain = paragraph[:0], true
			continue
		}
		if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok {
			return strings.TrimSpace(t)
		}
		if h, level := underlinedHeading(line, paragraph, plain); level == 1 {
			return h
		}
		if strings.TrimSpace(line) == "" {
			paragraph, plain = paragraph[:0], true
		} else {
			paragraph, plain = append(paragraph, line), plain && !notParagraph.MatchString(line)
		}
		prose.WriteString(inlineCode.ReplaceAllString(line, "") + "\n")
	}
	if m := htmlHeading.FindStringSubmatch(prose.String()); m != nil {
		return strings.Join(strings.Fields(htmlTag.ReplaceAllString(m[1], " ")), " ")
	}
	return ""
}

var (
	htmlHeading = regexp.MustCompile(`(?is)<h1\b[^>]*>(.*?)</h1\s*>`)
	htmlTag     = regexp.MustCompile(`<[^<>]*>`)
	inlineCode  = regexp.MustCompile("`+[^`]*`+")
)

// titleOf is a page's name as a title, for an article that gives none: as
// a site builds one from its file ("event-hooks" is "Event hooks"), a
// name written all in lower case with its dashes and underscores as
// spaces and its first letter capital. Any other is kept as written.
func titleOf(name string) string {
	if name != strings.ToLower(name) {
		return name
	}
	words := strings.Fields(strings.NewReplacer("-", " ", "_", " ").Replace(name))
	if len(words) == 0 {
		return name
	}
	t := strings.Join(words, " ")
	r, size := utf8.DecodeRuneInString(t)
	return string(unicode.ToUpper(r)) + t[size:]
}

// frontMatterHint says how to mend the commonest broken front matter, a
// title with a colon in it, which YAML reads as a key in a key.
func frontMatterHint(err error) string {
	if strings.Contains(err.Error(), "mapping values are not allowed") {
		return ` (a value that holds ": " must be quoted: title: "Appendix: YAML Techniques")`
	}
	return ""
}
