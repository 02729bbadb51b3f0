package kb

import (
	"path"
	"strings"
)

// An article's kb_id is the one its front matter gives. Without one, it
// is named after its file, as a documentation site names its page:
//
//   - the file's name without its extension: guides/install.md is
//     "install";
//   - an index page (index.md, _index.md, README.md) after its folder, as
//     the site shows it at the folder's address: guides/index.md is
//     "guides"; at the root it keeps its name;
//   - when two articles would be named alike (two folders with an
//     install.md, or with an index page of the same folder name), or one
//     would take a name another's front matter gives, each named after
//     its file by its path instead: "linux/install", "macos/install"; by
//     its path with its extension where that too is another's.
//
// Sites put an index page in every folder: named after their files alone,
// all but the first were reported as duplicates and never indexed. A
// kb_id a front matter gives that another article also has is still
// reported, and its second file skipped (SyncContext).

// indexPages are the names of a folder's own page, lower-cased.
var indexPages = map[string]bool{"index": true, "_index": true, "readme": true}

// fileID is the kb_id of the article at p (slash-separated, relative to
// the knowledge base's root) named after its file, and the longer one it
// takes when another is named alike.
func fileID(p string) (short, long string) {
	dir, file := path.Split(p)
	name := strings.TrimSuffix(file, path.Ext(file))
	dir = strings.TrimSuffix(dir, "/")
	if indexPages[strings.ToLower(name)] && dir != "" {
		return path.Base(dir), dir
	}
	return name, path.Join(dir, name)
}

// nameByFiles gives each article named after its file the long name
// (fileID) where another article of docs, named by its file or by its
// front matter, has the same; and its path where even that is another's
// (api/index.md and api/README.md are both "api"; guides.md and
// guides/index.md both "guides").
func nameByFiles(docs []Doc) {
	lengthen := func(name func(Doc) string) {
		count := map[string]int{}
		for _, d := range docs {
			count[d.KBID]++
		}
		for i, d := range docs {
			if d.byFile && count[d.KBID] > 1 {
				docs[i].KBID = name(d)
			}
		}
	}
	lengthen(func(d Doc) string { _, long := fileID(d.Path); return long })
	lengthen(func(d Doc) string { return d.Path })
}
