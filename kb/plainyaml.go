package kb

import (
	"bytes"
	"unicode/utf8"
)

// decodePlainFrontMatter decodes the front matter most articles have, and
// all of ours, without the YAML parser: one "key: value" line for each of
// title, kb_id, url and product (which names the product, read by
// agent.ProductOf, not here), and tags as a one-line list, "[a, b]", every
// value a plain word or words. It gives what yaml.Unmarshal gives for such front
// matter, and reports false for any other, which is then left to the YAML
// parser: a start decodes some thirty articles, and the parser allocates
// some hundred times for each.
//
// Whatever could mean something else in YAML is refused rather than read:
// another key or a key twice, indentation, comments, quotes, anchors,
// tags, block lists, empty or null values, a value that starts with an
// indicator or holds ": " or " #", tabs and carriage returns, and any
// character outside printable ASCII and the printable non-ASCII runes that
// YAML takes for neither a line break nor a byte order mark.
func decodePlainFrontMatter(head []byte, fm *frontMatter) bool {
	var out frontMatter
	var seen [5]bool
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		if len(line) == 0 {
			continue
		}
		key, value, ok := bytes.Cut(line, []byte(": "))
		if !ok || !printable(value) {
			return false
		}
		value = bytes.Trim(value, " ")
		k := -1
		switch string(key) {
		case "title":
			k, ok = 0, plainScalar(value, false)
			out.Title = string(value)
		case "kb_id":
			k, ok = 1, plainScalar(value, false)
			out.KBID = string(value)
		case "url":
			k, ok = 2, plainScalar(value, false)
			out.URL = string(value)
		case "tags":
			k = 3
			out.Tags, ok = plainList(value)
		case "product":
			k, ok = 4, plainScalar(value, false)
		}
		if k < 0 || !ok || seen[k] {
			return false
		}
		seen[k] = true
	}
	*fm = out
	return true
}

// plainList is the items of a one-line list of plain scalars, "[a, b]".
func plainList(value []byte) ([]string, bool) {
	if len(value) < 2 || value[0] != '[' || value[len(value)-1] != ']' {
		return nil, false
	}
	inner := value[1 : len(value)-1]
	if len(bytes.Trim(inner, " ")) == 0 {
		return []string{}, true
	}
	items := make([]string, 0, bytes.Count(inner, []byte(","))+1)
	for {
		item, rest, more := bytes.Cut(inner, []byte(","))
		if item = bytes.Trim(item, " "); !plainScalar(item, true) {
			return nil, false
		}
		items = append(items, string(item))
		if !more {
			break
		}
		inner = rest
	}
	return items, true
}

// plainScalar reports whether YAML reads v, trimmed of spaces, as the
// plain string v: in a flow list when inList, else as a mapping's value.
func plainScalar(v []byte, inList bool) bool {
	if len(v) == 0 || bytes.IndexByte([]byte("-?:,[]{}#&*!|>'\"%@`"), v[0]) >= 0 {
		return false
	}
	switch string(v) {
	case "~", "null", "Null", "NULL":
		return false
	}
	if inList {
		return !bytes.ContainsAny(v, ",[]{}:#?")
	}
	return !bytes.Contains(v, []byte(" #")) && !bytes.Contains(v, []byte(": ")) && v[len(v)-1] != ':'
}

// printable reports whether v holds only characters YAML reads as they
// are: printable ASCII, and valid UTF-8 runes from U+00A0 on other than
// the line and paragraph separators, the byte order mark and noncharacters.
func printable(v []byte) bool {
	for len(v) > 0 {
		if c := v[0]; c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			v = v[1:]
			continue
		}
		r, n := utf8.DecodeRune(v)
		switch {
		case r == utf8.RuneError, r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
			return false
		}
		v = v[n:]
	}
	return true
}
