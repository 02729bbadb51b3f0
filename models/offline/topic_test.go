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
