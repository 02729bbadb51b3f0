package safety

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// concepts map the stem of a Russian word to the stem of the English word
// it translates, so the model also reads a Russian message in the English
// words it shares weights with. Without them the two languages share no
// feature: the model learns each from its own words, and a Russian request
// phrased unlike the Russian training rows goes unread even when its
// English version is flagged. The dictionary is learnt from the training
// rows that have a version in each language (see learnConcepts) and travels
// in the weights file, so the model and its dictionary never part.
type concepts struct {
	// english maps a Russian stem to the English one: the dictionary as
	// the weights file holds it.
	english map[string]string
	// features maps the hash of a stem (stemKey), Russian or English, to
	// the feature of its concept: the lookup the classifier makes for every
	// word. An English stem is its own concept when some Russian one maps
	// to it.
	features map[uint64]uint64
}

// newConcepts is an empty dictionary with room for n Russian stems.
func newConcepts(n int) *concepts {
	return &concepts{english: make(map[string]string, n), features: make(map[uint64]uint64, 2*n)}
}

// stemKey is the hash features is keyed by: kind 0, which no feature has.
func stemKey(stem string) uint64 { return hashBytes(0, stem) }

// stem is the part of a normalised word the dictionary reads: a Russian
// word without its ending (russianStem), at most five letters; an English
// word without its ending (englishStem), at most six. Words of one or two
// letters have none. It returns a substring of word.
func stem(word string) string {
	if utf8.RuneCountInString(word) < 3 {
		return ""
	}
	if isCyrillic(word) {
		return prefixRunes(russianStem(word), 5)
	}
	return prefixRunes(englishStem(word), 6)
}

// englishStem is an English word without an -ing, -ed or plural ending,
// nor the silent -e before them, at least three letters kept: "bribe",
// "bribes", "bribed" and "bribing" all read "brib", "boxes" reads "box".
func englishStem(word string) string {
	cut := func(end string) bool {
		if len(word)-len(end) >= 3 && strings.HasSuffix(word, end) {
			word = word[:len(word)-len(end)]
			return true
		}
		return false
	}
	switch {
	case cut("ing"), cut("ed"):
	case strings.HasSuffix(word, "ss"): // "pass", "glass": no plural
	case hasAnySuffix(word, "ses", "xes", "zes", "ches", "shes") && cut("es"):
	default:
		cut("s")
	}
	cut("e")
	return word
}

func hasAnySuffix(s string, ends ...string) bool {
	for _, e := range ends {
		if strings.HasSuffix(s, e) {
			return true
		}
	}
	return false
}

// russianEndings are the inflectional endings russianStem takes off, the
// longest first where one ends another.
var russianEndings = [...]string{
	"иями", "ями", "ами", "ого", "его", "ому", "ему", "ыми", "ими", "ться", "тся",
	"ешь", "ишь", "ете", "ите", "ала", "ила", "ать", "ять", "ить", "еть", "уть",
	"ой", "ей", "ий", "ый", "ая", "яя", "ое", "ее", "ые", "ие", "ов", "ев", "ам",
	"ям", "ах", "ях", "ом", "ем", "им", "ым", "ую", "юю", "ют", "ут", "ит", "ет",
	"ат", "ят", "ла", "ло", "ли", "ть", "ся", "сь",
	"а", "я", "о", "е", "и", "ы", "у", "ю", "ь", "й", "л",
}

// russianStem is a Russian word without its inflectional ending, at least
// three letters kept: "атаки", "атаку" and "атака" all read "атак".
func russianStem(word string) string {
	for _, end := range russianEndings {
		if strings.HasSuffix(word, end) && utf8.RuneCountInString(word)-utf8.RuneCountInString(end) >= 3 {
			return word[:len(word)-len(end)]
		}
	}
	return word
}

// isCyrillic reports a word that opens with a lower-case Russian letter.
func isCyrillic(word string) bool {
	r, _ := utf8.DecodeRuneInString(word)
	return r >= 'а' && r <= 'я'
}

func prefixRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// each emits the hash of every concept a normalised text is read as.
// (Pairs of neighbouring concepts were tried as well and changed nothing.)
// A nil dictionary reads none. Its loop over the words is eachFeature's,
// written again: shared through an iterator, it cost the model's reading
// of a 130-character message 0.4 µs (8%).
func (c *concepts) each(norm string, emit func(uint64)) {
	if c == nil {
		return
	}
	for start := 1; start < len(norm); {
		end := start
		for end < len(norm) && norm[end] != ' ' {
			end++
		}
		if end == start {
			break
		}
		if s := stem(norm[start:end]); s != "" {
			if f, ok := c.features[stemKey(s)]; ok {
				emit(f)
			}
		}
		start = end + 1
	}
}

// Learning settings. A Russian stem is mapped to an English one when it is
// in conceptMinCount parallel messages or more, and the English stem takes
// conceptMinShare or more of the Russian stem's alignments, and at least
// conceptMinAligned of them.
const (
	conceptMinCount   = 3
	conceptMinShare   = 0.25
	conceptMinAligned = 1.5
	// An English stem in more than one pair in stopwordEvery ("the", "you",
	// "how") names no concept.
	stopwordEvery = 25
	conceptRounds = 8
)

// learnConcepts maps each Russian stem to the English stem it translates
// most often, by IBM Model 1: each English stem of a pair is aligned to the
// Russian stems of the pair (or to none) in proportion to how likely each
// is to translate as it, and the likelihoods are re-estimated from those
// alignments a few rounds over. Unlike counting co-occurrence, this lets a
// word that always comes with its translation ("гигиена", "hygiene") take
// the alignment off a word that merely shares a message with it
// ("клевета"). pairs are the Russian and English text of each pair,
// normalised.
func learnConcepts(pairs [][2]string) *concepts {
	ids := map[string]int32{}
	var names []string
	id := func(s string) int32 {
		if i, ok := ids[s]; ok {
			return i
		}
		ids[s] = int32(len(names))
		names = append(names, s)
		return ids[s]
	}
	id("") // none
	// Each pair's English stems, read once for the counts and the sentences.
	english := make([][]string, len(pairs))
	enCount := map[string]int{}
	for i, p := range pairs {
		english[i] = stemSet(p[1], false)
		for _, e := range english[i] {
			enCount[e]++
		}
	}
	var sents []sentence
	ruCount := map[int32]int{}
	for i, p := range pairs {
		s := sentence{ru: []int32{none}}
		for _, r := range stemSet(p[0], true) {
			r := id(r)
			s.ru = append(s.ru, r)
			ruCount[r]++
		}
		for _, e := range english[i] {
			if enCount[e]*stopwordEvery <= len(pairs) {
				s.en = append(s.en, id(e))
			}
		}
		sents = append(sents, s)
	}
	t, aligned := align(sents, len(names))
	type best struct {
		en    int32
		share float64
	}
	top := map[int32]best{}
	for k, share := range t {
		r, e := splitAlignKey(k)
		if r == none || ruCount[r] < conceptMinCount || aligned[k] < conceptMinAligned {
			continue
		}
		if b, ok := top[r]; !ok || share > b.share || share == b.share && names[e] < names[b.en] {
			top[r] = best{e, share}
		}
	}
	c := newConcepts(len(top))
	for r, b := range top {
		if b.share >= conceptMinShare {
			c.add(names[r], names[b.en])
		}
	}
	return c
}

// stemSet is the distinct stems of a normalised text, in order of first
// use; of its Cyrillic words only if cyrillic, of the others otherwise (a
// Russian message quoting "API" needs no translation).
func stemSet(norm string, cyrillic bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.Fields(norm) {
		if s := stem(w); s != "" && !seen[s] && isCyrillic(s) == cyrillic {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func (c *concepts) add(ru, en string) {
	c.english[ru] = en
	f := hashBytes(kindConcept, en)
	c.features[stemKey(ru)], c.features[stemKey(en)] = f, f
}

// encode writes the dictionary as "ru en" lines in the order of the
// Russian stems; nothing for none.
func (c *concepts) encode() []byte {
	if c == nil {
		return nil
	}
	keys := make([]string, 0, len(c.english))
	for r := range c.english {
		keys = append(keys, r)
	}
	sort.Strings(keys)
	var b []byte
	for _, r := range keys {
		b = append(append(append(append(b, r...), ' '), c.english[r]...), '\n')
	}
	return b
}

// decodeConcepts reads what encode wrote, and nothing else: a model
// trained without parallel rows has an empty dictionary.
func decodeConcepts(b []byte) (*concepts, error) {
	// One string for the whole dictionary, which every stem is a piece
	// of, and maps made to size: decoding is part of every process's
	// start.
	all := string(b)
	c := newConcepts(strings.Count(all, "\n"))
	prev := ""
	for line := range strings.Lines(all) {
		text, ended := strings.CutSuffix(line, "\n")
		ru, en, ok := strings.Cut(text, " ")
		if !ended || !ok || !isCyrillic(ru) || ru <= prev || en == "" || isCyrillic(en) || strings.ContainsAny(en, " \r\t") {
			return nil, fmt.Errorf("safety model: concept line %q is not \"russian english\" after %q", line, prev)
		}
		c.add(ru, en)
		prev = ru
	}
	return c, nil
}

// sentence is a parallel pair as align reads it: the ids of its stems, the
// Russian ones led by none.
type sentence struct{ ru, en []int32 }

// none is the id of no Russian word, the one an English word that
// translates none of them (an article, a word the translator added) is
// aligned to.
const none = 0

// align runs IBM Model 1's rounds over the sentences, whose stems have ids
// below words. It returns, by alignKey, the likelihood that a Russian stem
// translates as an English one and the alignments the last round counted.
// Every sum is taken in the sentences' order, so the result is the same
// from one run to the next. Like sgd, it is one goroutine's arithmetic
// over its own maps and is not instrumented under -race.
//
//go:norace
func align(sents []sentence, words int) (like, aligned map[int64]float64) {
	uniform := 1 / float64(words)
	likely := func(r, e int32) float64 {
		if v, ok := like[alignKey(r, e)]; ok {
			return v
		}
		return uniform
	}
	for range conceptRounds {
		aligned = map[int64]float64{}
		total := map[int32]float64{}
		for _, s := range sents {
			for _, e := range s.en {
				var sum float64
				for _, r := range s.ru {
					sum += likely(r, e)
				}
				for _, r := range s.ru {
					a := likely(r, e) / sum
					aligned[alignKey(r, e)] += a
					total[r] += a
				}
			}
		}
		like = map[int64]float64{}
		for k, a := range aligned {
			r, _ := splitAlignKey(k)
			like[k] = a / total[r]
		}
	}
	return like, aligned
}

func alignKey(r, e int32) int64 { return int64(r)<<32 | int64(e) }

// splitAlignKey is the Russian and English ids alignKey joined.
func splitAlignKey(k int64) (r, e int32) { return int32(k >> 32), int32(k) }
