package safety

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"case and punctuation", "How do I KILL it?!", " how do i kill it "},
		{"yo is ye", "Всё ещё", " все еще "},
		{"apostrophe splits", "someone's", " someone s "},
		{"zero-width and soft hyphen vanish", "k\u200bi\u00adll", " kill "},
		{"latin look-alikes in a russian word", "yбить", " убить "},
		{"cyrillic look-alikes in an english word", "kіll рorn", " kill porn "},
		{"latin leetspeak", "h4ck k1ll b0mb", " hack kill bomb "},
		{"a run of ones reads as l", "a11 ki11", " all kill "},
		{"cyrillic leetspeak", "у6ить к@к", " убить как "},
		{"spelled out", "k i l l me", " kill me "},
		{"spelled out in russian", "у б и т ь", " убить "},
		{"two letters stay apart", "a b test", " a b test "},
		{"dots and slashes inside a word", "k.i.l.l вз/ломать", " kill взломать "},
		{"sentence dot still ends a word", "kill. now", " kill now "},
		{"numbers stay numbers", "kill -9 1234", " kill 9 1234 "},
		{"exclamation at the edge is punctuation", "help!", " help "},
		{"combining accent dropped", "ки\u0301лл", " килл "},
		{"empty", "", "  "},

		{"control character inside a word", "b\x01omb", " bomb "},
		{"C1 control character inside a word", "b\u009fomb", " bomb "},
		{"line break and tab still end a word", "kill\nnow\tplease", " kill now please "},
		{"Mongolian vowel separator", "b\u180eomb", " bomb "},
		{"Hangul fillers", "b\u3164o\uffa0m\u115fb", " bomb "},
		{"tag characters", "b\U000E0062o\U000E007Fmb", " bomb "},
		{"direction marks", "b\u200eo\u202emb", " bomb "},
		{"zero-width joiner, word joiner, BOM", "b\u200do\u2060m\ufeffb", " bomb "},
		{"variation selectors", "b\ufe0fo\U000E0100mb", " bomb "},
		{"private-use character", "b\ue000omb", " bomb "},
		{"decomposed й", "убии\u0306ца", " убийца "},
		{"Latin-majority word with a Cyrillic о", "bоmb", " bomb "},
		{"Cyrillic-majority word with Latin с and о", "сocед", " сосед "},
		{"Russian leetspeak: 4 for а", "б0мб4 вз0рв4ть", " бомба взорвать "},
		{"Russian leetspeak: 4 for ч before a vowel", "4ел0век", " человек "},
		{"Russian leetspeak: 3, 6, 8", "в3орвать 6омбу 8зрыв", " взорвать бомбу взрыв "},
		{"6 tells a Russian word", "6oм6y", " бомбу "},
		{"! inside a Russian word", "у!бить ж!!", " убить ж "},
		{"letters joined by hyphens", "b-o-m-b", " bomb "},
		{"an article before hyphenated letters", "a b-o-m-b", " a bomb "},
		{"spaced-out English", "h o w  t o  m a k e  a  b o m b", " how to make a bomb "},
		{"spaced-out Russian", "к а к  с д е л а т ь  б о м б у", " как сделать бомбу "},
		{"Russian one-letter words stay words", "а я и не знал, и я в шоке", " а я и не знал и я в шоке "},
		{"English one-letter words stay words", "I need a b-tree", " i need a b tree "},
		{"a double space between one-letter words", "а я и  в шоке, я и  ты", " а я и в шоке я и ты "},
		{"symbols around numbers", "$!0 !1! @2$", " 0 1 2 "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, normalize(tc.in))
		})
	}
}

// TestReadings: letters spelled out with spaces that can be read two ways
// give a second reading; every other message has one.
func TestReadings(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"plain text", "how do I kill a hung process", []string{" how do i kill a hung process "}},
		{"an article before a spelled-out word", "I need a b o m b", []string{" i need abomb ", " i need a bomb "}},
		{"a spelled-out word that starts with a", "a t t a c k", []string{" attack ", " a ttack "}},
		{"a one-letter word after a spelled-out word", "b o m b a", []string{" bomba ", " bomb a "}},
		{"one-letter words, or a spelled-out word", "к а к", []string{" к а к ", " как "}},
		{"a run too short to split", "a b c", []string{" abc "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, readings(tc.in))
		})
	}
}

func TestWordStarts(t *testing.T) {
	assert.Equal(t, []int{1, 5}, wordStarts(" how do "))
	assert.Empty(t, wordStarts("  "))
}
