package tests

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/templates"
)

// TestLanguagesAreOneList: the texts' catalogue carries exactly
// contracts.Languages, and every setting that takes a language accepts
// each of them and refuses another, so a language added in one place
// only fails here.
func TestLanguagesAreOneList(t *testing.T) {
	texts, err := templates.Default()
	require.NoError(t, err)
	assert.ElementsMatch(t, contracts.Languages(), texts.Languages(), "the catalogue's languages")
	for _, lang := range contracts.Languages() {
		c := config.Default()
		c.Language = lang
		assert.NoError(t, c.Validate(), "language: %s", lang)
		assert.NoError(t, kb.Config{TopK: 5, Language: lang}.Validate(), "kb.language: %s", lang)
	}
	c := config.Default()
	c.Language = "de"
	assert.ErrorContains(t, c.Validate(), `language: "de" is not en or ru`)
}
