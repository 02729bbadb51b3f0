package offline

import "testing"

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
