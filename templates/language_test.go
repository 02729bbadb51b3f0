package templates

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDetectLanguage(t *testing.T) {
	for text, want := range map[string]string{
		"How do I set the guard mode?":                     "en",
		"Как настроить режим охранника?":                   "ru",
		"Сколько весит TrailMaster X4 Tent?":               "ru",
		"Как включить guard.mode=enforce в sgrgraph.yaml?": "ru",
		"What does the error 'нет соединения' mean here?":  "en",
		"12345 ?!": "",
	} {
		assert.Equal(t, want, DetectLanguage(text), text)
	}
}
