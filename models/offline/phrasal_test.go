package offline

import (
	"maps"
	"testing"
)

func TestPhrasalVerbsPairAWordWithTheParticleAfterIt(t *testing.T) {
	tests := []struct {
		text string
		want map[string]string
	}{
		{"turn off the lights", map[string]string{"turn": "off"}},
		{"Turn the volume down", map[string]string{"volume": "down"}},
		{"why does my build take up so much space?", map[string]string{"take": "up"}},
		{"how do I change the PIN on my card?", nil},
		{"off", nil},
	}
	for _, tc := range tests {
		if got := phrasalVerbs(tc.text); !maps.Equal(got, tc.want) {
			t.Errorf("phrasalVerbs(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// A manual that speaks of a conversation's turns says "turn" often and
// "turn off" never: turning off the lights is not its subject, while a
// stove's manual that says how to turn off the valve keeps it.
func TestAPhrasalVerbIsCountedAsThePair(t *testing.T) {
	turns := "Each turn of the conversation is traced. A turn ends with an answer. The next turn reads the last turn."
	stove := "Turn off the control valve after use. To relight, turn off the valve and wait."
	tests := []struct {
		name   string
		corpus string
		text   string
		off    bool
	}{
		{"a conversation's turns", turns, "turn off the lights", true},
		{"the word alone is still the manual's", turns, "the last turn", false},
		{"a stove's valve", stove, "turn off the valve", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newTopicModel([]string{tc.corpus})
			rel := m.relevance(specific(contentWords(tc.text)), phrasalVerbs(tc.text))
			if got := offTopic(rel) >= 0.7; got != tc.off {
				t.Errorf("%q: relevance %.2f, off-topic %.2f, blocked %v, want %v", tc.text, rel, offTopic(rel), got, tc.off)
			}
		})
	}
}
