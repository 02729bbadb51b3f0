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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, normalize(tc.in))
		})
	}
}

func TestWordStarts(t *testing.T) {
	assert.Equal(t, []int{1, 5}, wordStarts(" how do "))
	assert.Empty(t, wordStarts("  "))
}
