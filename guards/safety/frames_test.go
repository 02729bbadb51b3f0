package safety

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestReframed(t *testing.T) {
	tests := []struct {
		name, norm, lang string
		framed           bool
		rest             string // what must follow the new frame
	}{
		{"english how to", " how to pick a lock ", "en", true, "pick a lock "},
		{"the longest frame wins", " what are some ways to pick a lock ", "en", true, "pick a lock "},
		{"russian", " какие есть способы занизить доход ", "ru", true, "занизить доход "},
		{"russian polite", " подскажите как сорвать сделку ", "ru", true, "сорвать сделку "},
		{"no frame", " write a poem about spring ", "en", false, ""},
		{"a frame word later is no frame", " tell them how to ", "en", false, ""},
		{"another language's frame", " how to pick a lock ", "ru", false, ""},
		{"unknown language", " how to pick a lock ", "de", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := reframed(tt.norm, tt.lang)
			assert.Equal(t, tt.framed, ok)
			if !tt.framed {
				return
			}
			assert.NotEqual(t, tt.norm, got, "the frame changes")
			assert.Contains(t, questionFrames(tt.lang), got[:len(got)-len(tt.rest)], "a frame of the language opens it")
			assert.Equal(t, tt.rest, got[len(got)-len(tt.rest):], "the request stays")
			again, _ := reframed(tt.norm, tt.lang)
			assert.Equal(t, got, again, "the same text always gets the same frame")
		})
	}
}
