package guards

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConfig(t *testing.T) {
	c := Config{QualityMinItems: 3, QualityMinSources: 1, MinAvgConfidence: 0.4, FastMinItems: 1, RequiredSections: []string{"Steps"}}
	require.NoError(t, c.Validate())
	r := c.EvidenceRules()
	assert.Equal(t, 3, r.QualityMinItems)
	assert.Equal(t, DefaultEvidenceRules().Sources, r.Sources, "the seed's source rules stay")
	assert.Equal(t, []string{"Steps"}, c.Contract().RequiredSections)
	p, err := c.CompiledPolicy()
	require.NoError(t, err)
	assert.Nil(t, p, "no policy costs nothing")

	c.QualityMinSources = 9
	c.Policy.ForbiddenExpressions = []string{"("}
	err = c.Validate()
	assert.ErrorContains(t, err, "quality_min_sources: 9 is outside 0..4")
	assert.ErrorContains(t, err, "policy.forbidden_expressions[0]:")
	_, err = c.CompiledPolicy()
	assert.ErrorContains(t, err, "policy.forbidden_expressions[0]:")
}
