package offline

import "strings"

// telling are the searches without the words the knowledge base says
// about everywhere, as it says its product's name ("etcd", "cargo"): in
// nine articles of ten or more and in two sections of five or more; or in
// half the articles as the product's name ("Hugo", "Obsidian";
// productName), however few of their sections say it. Such
// a word tells no article from another by what they say, yet a search for
// it ranks first the articles whose titles happen to carry it: with it, a
// knowledge base whose headings name the product ("Upgrading etcd
// clusters") answered other questions from other articles than the same
// one whose headings do not ("Upgrading clusters"). A word every article
// says in one section only ("clean" in each manual's care section) tells
// which passage answers, and stays. A search left with no word is
// dropped; when every search would be, they are kept as they are, since
// such a word is then all that was asked.
func (e *Engine) telling(queries []string) []string {
	sections, named := e.reading.sections(), e.named()
	out := make([]string, 0, len(queries))
	seen := map[string]bool{}
	for _, q := range queries {
		var kept []string
		for _, w := range strings.Fields(q) {
			// A dotted name ("cargo.lock", "http/2") is the name of one
			// thing, whatever its first part says (dottedNames).
			if s := stem(strings.ToLower(w)); strings.ContainsAny(w, "./") || !named[s] && (!e.topics.nearlyEverywhere(s) || !sections.often(s)) {
				kept = append(kept, w)
			}
		}
		if t := strings.Join(kept, " "); t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return queries
	}
	return out
}

// nearlyEverywhere: the stem is in nine articles of ten or more, of a
// knowledge base of some size (everywhere).
func (t topicModel) nearlyEverywhere(s string) bool {
	i, ok := t.stems[s]
	return ok && t.docs >= minArticlesEverywhere && 10*t.articles[i] >= 9*t.docs
}

// sectionCounts are the sections of a corpus, the text under each
// heading (and under the title line to the first heading), and how many
// of them hold each stem.
type sectionCounts struct {
	sections int
	holding  map[string]int
}

// often: the stem (stem) is in two sections of five or more.
func (c sectionCounts) often(s string) bool {
	return c.sections > 0 && 5*c.holding[s] >= 2*c.sections
}

// countSections counts the sections of corpus: a Markdown heading outside
// code opens one. A section holds the words of its text, not of its
// heading nor of the article's title line: a knowledge base whose headings
// name the product ("## Keet is not working") counts its sections as its
// copy whose headings do not, and the name is searched, or not, in both.
func countSections(corpus []string) sectionCounts {
	c := sectionCounts{holding: map[string]int{}}
	in := map[string]bool{}
	buf := make([]byte, 0, 32)
	flush := func() {
		if len(in) > 0 {
			c.sections++
			for s := range in {
				c.holding[s]++
			}
			clear(in)
		}
	}
	for _, text := range corpus {
		fence, title := false, true
		for line := range strings.Lines(text) {
			if title { // the article's title line
				title = false
				continue
			}
			t := strings.TrimSpace(line)
			if fenceMark(t) {
				fence = !fence
			}
			if !fence && atxHeading(t) {
				flush()
				continue
			}
			eachContentWord(line, buf, func(w []byte) { in[stem(string(w))] = true })
		}
		flush()
	}
	return c
}
