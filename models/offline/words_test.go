package offline

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// wordsByString is words as first written, over the whole lower-cased
// text: the reference the scanner is held to.
func wordsByString(text string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, strings.Trim(b.String(), "'’"))
			b.Reset()
		}
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case (r == '\'' || r == '’') && b.Len() > 0:
			b.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return out
}

func stemByRunes(w string) string {
	r := []rune(strings.ReplaceAll(w, "ё", "е"))
	if len(r) > 5 {
		r = r[:5]
	}
	return string(r)
}

// topicStemByRunes is topicStem as first written: a Russian word's stem,
// seven letters of any other, ё read as е in both.
func topicStemByRunes(w string) string {
	r := []rune(strings.ReplaceAll(w, "ё", "е"))
	if len(r) > 0 && unicode.Is(unicode.Cyrillic, r[0]) {
		return stemByRunes(w)
	}
	return string(r[:min(len(r), 7)])
}

var wordSamples = []string{
	"", "How do I configure the safety guard?", "Как настроить фильтр безопасности? Ёлка, ЁЖ",
	"doesn't it'' work’’ ’quoted’ rock'n'roll", "İSTANBUL ǅ ẞ Σίσυφος", "\xff\xfe invalid \xc3 bytes",
	"numbers 1,234 and x2 ٣٤ ½", "a-b c_d e.f", "ёёёёёёё ёжик",
}

func FuzzWords(f *testing.F) {
	for _, s := range wordSamples {
		f.Add(s, "configure the safety guard")
	}
	f.Add("Ёжик в тумане, ежевика и ёлка.", "ежик елка ёж")
	f.Fuzz(func(t *testing.T, text, request string) {
		got, want := words(text), wordsByString(text)
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Fatalf("words(%q) = %q, want %q", text, got, want)
		}
		for _, w := range want {
			if stem(w) != stemByRunes(w) {
				t.Fatalf("stem(%q) = %q, want %q", w, stem(w), stemByRunes(w))
			}
			if s := string(appendStem(nil, []byte(w))); s != stem(w) {
				t.Fatalf("appendStem(%q) = %q, want %q", w, s, stem(w))
			}
		}
		corpus := []string{text, request}
		model, first := newTopicModel(corpus), topicByWords(corpus)
		if !reflect.DeepEqual(model.words, first.counts) || model.total != first.total || model.vocab != first.vocab {
			t.Fatalf("newTopicModel(%q) = %v, want %v", corpus, model.words, first)
		}
		stems := map[string]bool{}
		for _, w := range want {
			if utf8.RuneCountInString(w) > 1 && !stopWords[w] {
				stems[stemByRunes(w)] = true
			}
		}
		for _, w := range wordsByString(request) {
			if utf8.RuneCountInString(w) > 1 && !stopWords[w] {
				stems[stemByRunes(w)] = true
			}
		}
		if len(stems) != len(model.stems) {
			t.Fatalf("newTopicModel(%q) has %d stems, want %d", corpus, len(model.stems), len(stems))
		}
	})
}

// stemCounts is a topic model as first written: the counts keyed by
// topic stem.
type stemCounts struct {
	counts       map[string]float64
	total, vocab float64
}

// topicByWords is the topic model as first written: each content word's
// topic stem counted in turn.
func topicByWords(corpus []string) stemCounts {
	t := stemCounts{counts: map[string]float64{}}
	for _, text := range corpus {
		for _, w := range wordsByString(text) {
			if utf8.RuneCountInString(w) > 1 && !stopWords[w] {
				t.counts[topicStemByRunes(w)]++
				t.total++
			}
		}
	}
	t.vocab = float64(len(t.counts) + 1)
	return t
}

// FuzzListMarker: the list marker is what the regular expression it stands
// for matches.
func FuzzListMarker(f *testing.F) {
	re := regexp.MustCompile(`^([-*+]|\d+[.)])\s+`)
	for _, s := range []string{"", "- item", "* x", "+\tx", "12. step", "3) step", "1.x", "-", "--  x", "1. ", "a. b", "٣. x", "1.\v x", "1.\f x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		want := len(re.FindString(line))
		if got := listMarker(line); got != want {
			t.Fatalf("listMarker(%q) = %d, want %d", line, got, want)
		}
	})
}

// sentencesBySplit is sentences as first written: lines split at once,
// units gathered, then cut into sentences.
func sentencesBySplit(text string) []string {
	listItem := regexp.MustCompile(`^([-*+]|\d+[.)])\s+`)
	specLine := regexp.MustCompile(`^\*\*([^*]+?\*\*:|[^*]*?:\*\*)`)
	var units []string
	spec, items, rows := map[int]bool{}, map[int]bool{}, map[int]bool{}
	tableLine := regexp.MustCompile(`^\|(.*?)\|?$`)
	underline := regexp.MustCompile(`^(={2,}|-{2,})$`)
	var header []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			units = append(units, strings.Join(cur, " "))
			cur = nil
		}
	}
	fence := false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		table := tableLine.FindStringSubmatch(line)
		if table == nil || fence {
			header = nil
		}
		switch {
		case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
			flush()
			fence = !fence
		case fence:
		case table != nil:
			flush()
			cs := strings.Split(table[1], "|")
			for i := range cs {
				cs[i] = strings.TrimSpace(cs[i])
			}
			if header == nil {
				header = cs
			} else if row := tableRow(header, cs); row != "" {
				units = append(units, row)
				rows[len(units)-1] = true // one statement: not cut, no shortest length
			}
		case underline.MatchString(line):
			if len(cur) > 0 { // the paragraph above was a heading
				cur = nil
				delete(items, len(units))
			}
		case line == "" || strings.HasPrefix(line, "#") || strings.Contains(line, " > ") && !strings.ContainsAny(line, ".:"):
			flush()
		case specLine.MatchString(line):
			flush()
			units = append(units, line)
			spec[len(units)-1] = true // a property: no shortest length
		case listItem.MatchString(line):
			flush()
			cur = append(cur, listItem.ReplaceAllString(line, ""))
			items[len(units)] = true // the unit flush will add
		default:
			cur = append(cur, line)
		}
	}
	flush()
	var out []string
	for i, u := range units {
		if rows[i] {
			if len([]rune(u)) <= 400 {
				out = append(out, u)
			}
			continue
		}
		shortest := 20
		if spec[i] {
			shortest = 1
		}
		if !statement(u, items[i]) {
			continue
		}
		for _, s := range splitSentences(u) {
			if n := len([]rune(s)); n >= shortest && n <= 400 {
				out = append(out, s)
			}
		}
	}
	return out
}

func FuzzSentences(f *testing.F) {
	for _, s := range []string{"", "\n", "The safety guard > Guard modes\n\nSet the mode with `guard.mode` in the configuration.\n\n- **enforce** blocks what the guard flags now.\n- **report** only records it, nothing more.\n\n```yaml\nguard:\n  mode: enforce\n```\n\nThe Guardian works twice: at the door it classifies the message. As a judge it checks the evidence!",
		"# Title\n| a | b |\n1. first step of many steps here.\n2) second step of many steps here.\nA line that goes on\nand on until it ends here.\n",
		"Learner vs. Mirror Maker\n========================\n\nMirroring usually has low latency overhead.\n\n---\n\n- An item that is a heading\n--\nThe text under it says more."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		// sentencesBySplit does not read lists of names and of a setting's
		// properties, quoted whole after the line that announces them
		// (TestAListOfNamesIsQuotedWithTheLineThatAnnouncesIt holds those):
		// on a list item the two readings part by design.
		for _, line := range strings.Split(text, "\n") {
			if listMarker(strings.TrimSpace(line)) > 0 {
				return
			}
		}
		if got, want := sentences(text), sentencesBySplit(text); strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Fatalf("sentences(%q) = %q, want %q", text, got, want)
		}
	})
}
