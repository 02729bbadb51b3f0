package kb

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestConfigLanguage(t *testing.T) {
	for _, l := range []string{"", "auto", "ru", "en"} {
		assert.NoError(t, Config{TopK: 5, Language: l}.Validate(), l)
	}
	assert.EqualError(t, Config{TopK: 5, Language: "de"}.Validate(), `language: "de" is not auto, en or ru`)
}
