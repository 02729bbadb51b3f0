package offline

import (
	"slices"
	"strings"
	"testing"
)

// asciiStem is appendStem, whatever the word.
func FuzzASCIIStem(f *testing.F) {
	for _, w := range []string{"", "a", "configuration", "настройка", "ёжик", "abcdё", "abcdеf", "ab\xffcd", "’s"} {
		f.Add([]byte(w))
	}
	f.Fuzz(func(t *testing.T, w []byte) {
		if got, want := asciiStem(nil, w), appendStem(nil, w); string(got) != string(want) {
			t.Fatalf("%q: %q, want %q", w, got, want)
		}
	})
}

func TestAWordInMostArticlesIsSaidEverywhere(t *testing.T) {
	corpus := func(n int) []string {
		var out []string
		for i := range n {
			text := "etcd keeps the cluster state"
			if i == 0 {
				text += ". A snapshot is a point-in-time backup"
			}
			if i%2 == 0 {
				text += ". Leader election"
			}
			out = append(out, text)
		}
		return out
	}
	tests := []struct {
		name     string
		articles int
		word     string
		want     bool
	}{
		{"the product's name, in every article", 10, "etcd", true},
		{"in half of them", 10, "leader", true},
		{"in one of them", 10, "backup", false},
		{"a word the knowledge base never says", 10, "mortgage", false},
		{"too few articles for half to be many", minArticlesEverywhere - 1, "etcd", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newTopicModel(corpus(tc.articles))
			if got := m.everywhere(stem(tc.word)); got != tc.want {
				t.Errorf("everywhere(%q) over %d articles = %v, want %v", tc.word, tc.articles, got, tc.want)
			}
		})
	}
}

// TestTopicStemsKeepWordsApart: the off-topic score reads seven letters of
// an English word, so words that only begin alike are not one word to
// it, and a Russian word's forms still meet.
func TestTopicStemsKeepWordsApart(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"commute", "communication", false},
		{"latte", "latter", false},
		{"configure", "configuration", true},
		{"notifications", "notification", true},
		{"настройка", "настроить", true},
		{"ёлочный", "елочная", true},
		{"naïveté", "naïveness", false},
	}
	for _, tc := range tests {
		if got := topicStem(tc.a) == topicStem(tc.b); got != tc.same {
			t.Errorf("%q (%q) and %q (%q): same %v, want %v", tc.a, topicStem(tc.a), tc.b, topicStem(tc.b), got, tc.same)
		}
	}
}

// A coffee order shares the first five letters of "latter" with a
// software manual, and none of its words: it is off-topic there.
func TestAWordThatOnlyBeginsLikeTheKnowledgeBasesIsNotItsWord(t *testing.T) {
	m := newTopicModel([]string{"Scrape targets. The latter are configured in the scrape config; the former are discovered."})
	if rel := m.relevance([]string{"latte"}, nil); offTopic(rel) < 0.7 {
		t.Errorf("relevance of %q = %.2f, off-topic %.2f: want at least 0.7", "latte", rel, offTopic(rel))
	}
	if rel := m.relevance([]string{"scrape", "targets"}, nil); offTopic(rel) >= 0.7 {
		t.Errorf("relevance of the manual's own words = %.2f, off-topic %.2f: want below 0.7", rel, offTopic(rel))
	}
}

// A word the knowledge base says once may be there by chance: it keeps a
// sixth of its evidence, and a word said throughout nearly all of it.
func TestAWordSaidOnceIsWeakEvidence(t *testing.T) {
	text := strings.Repeat("Stove care: the stove burns gas. ", 40) + "Reduce the volume. " + strings.Repeat("Filler words here. ", 1000)
	m := newTopicModel([]string{text})
	tests := []struct {
		word     string
		min, max float64
	}{
		{"stove", 3, evidenceClamp},
		{"volume", 0, 1},
	}
	for _, tc := range tests {
		if rel := m.relevance([]string{tc.word}, nil); rel < tc.min || rel > tc.max {
			t.Errorf("relevance of %q = %.2f, want between %v and %v", tc.word, rel, tc.min, tc.max)
		}
	}
}

// TestAStoryAroundAQuestionIsNotItsSubject: a customer tells what
// happened in words no manual uses; the question inside is the manual's.
// A request of other things stays off topic however it is told.
func TestAStoryAroundAQuestionIsNotItsSubject(t *testing.T) {
	manual := strings.Repeat("Stove care: clean the burner and the fuel valve of the stove after each use. "+
		"If the flame is weak, clean the jet with the pricker and check the fuel bottle seal. ", 30) +
		strings.Repeat("Store the stove dry. ", 200)
	e := New(Options{Corpus: []string{manual}})
	tests := []struct {
		request string
		off     bool
	}{
		{"How do I clean the stove burner?", false},
		{"My father and my kids were camping by the lake last weekend and the stove flame was weak, how do I clean the burner jet?", false},
		{"Drove to Italy in June with my mother-in-law, and at the campsite the flame kept dying. What should I do?", false},
		{"my brother borrowed it for his fishing trip and now the fuel valve leaks, can it be fixed?", false},
		{"What time does the next train to the lake leave on the weekend?", true},
		{"My kids want pancakes for breakfast on the weekend, what recipe should I cook for them?", true},
	}
	for _, tc := range tests {
		t.Run(tc.request, func(t *testing.T) {
			score, _ := e.spam(tc.request, analysis{}, "en")
			if off := score >= 0.7; off != tc.off {
				t.Errorf("spam score %.2f: off topic %t, want %t", score, off, tc.off)
			}
		})
	}
}

// TestASubjectAtTheEndIsSearchedAndOneInTheMiddleToo: the narrower search
// is the request's last two words, the subject of most questions; when
// they are everyday words ("as well"), the two words most the knowledge
// base's are searched too.
func TestASubjectAtTheEndIsSearchedAndOneInTheMiddleToo(t *testing.T) {
	bank := strings.Repeat("Joint account owners: either owner can change the address on a joint account. "+
		"A mobile deposit posts the next business day. ", 30) + strings.Repeat("Keep your card safe. ", 100)
	e := New(Options{Corpus: []string{bank}})
	tests := []struct {
		request string
		want    []string
	}{
		{"How do I change the address on a joint account?", []string{"change address joint account", "joint account"}},
		{"My wife and I share a joint account. If she changes the address, does it change for me as well?",
			[]string{"wife share joint account changes address change well", "change well", "joint address"}},
	}
	for _, tc := range tests {
		t.Run(tc.request, func(t *testing.T) {
			if got := subqueries(contentWords(tc.request), tc.request, e.topics.subject); !slices.Equal(got, tc.want) {
				t.Errorf("subqueries = %q, want %q", got, tc.want)
			}
		})
	}
}
