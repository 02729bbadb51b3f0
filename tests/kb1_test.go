package tests

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// In a knowledge base of one article every word is common and no article
// scores high: the one article that answers must still be enough, and a
// retry's one-word search that finds it "strongly" must not pass a
// question it does not answer.
func TestOneArticleKnowledgeBases(t *testing.T) {
	answered := map[string][]string{
		"router": {"How do I reset the router?", "How do I change the Wi-Fi password?", "Does the router update its firmware automatically?"},
		"coffee": {"How do I descale the BrewMaster?", "How often should I descale the machine?", "How do I clean the milk frother?",
			"Is limescale damage covered by the warranty?", "Can I put milk in the water tank?"},
		"leave": {"How many days of annual leave do I get?", "Can I carry over unused leave days?", "How do I request leave?",
			"Do sick days count against my annual leave?", "When do I need to send a doctor's note?"},
	}
	for dir, questions := range answered {
		a := newAgent(t, agent.Options{}, func(c *config.Config) { c.KB.Dir = "testdata/kb1/" + dir })
		for _, q := range questions {
			t.Run(q, func(t *testing.T) {
				s, err := a.RunState(context.Background(), agent.Turn{SessionID: dir, Message: q})
				require.NoError(t, err)
				require.NotNil(t, s.Verdict)
				assert.Equal(t, contracts.VerdictPass, s.Verdict.Verdict, "%v", s.Verdict.Reasons)
				assert.Zero(t, s.RetryCount, "no second article to look for")
			})
		}
	}
	a := newAgent(t, agent.Options{}, func(c *config.Config) { c.KB.Dir = "testdata/kb1/router" })
	s, err := a.RunState(context.Background(), agent.Turn{SessionID: "router", Message: "How do I set up parental controls on the router?"})
	require.NoError(t, err)
	require.NotNil(t, s.Verdict)
	assert.NotEqual(t, contracts.VerdictPass, s.Verdict.Verdict, "the article says nothing of parental controls: %s", s.Answer)
}

// A Russian question to an English one-article knowledge base is carried
// over by the glossary: "настройки" is settings, not "configure".
func TestARussianQuestionFindsTheEnglishArticlesSection(t *testing.T) {
	a := newAgent(t, agent.Options{}, func(c *config.Config) { c.KB.Dir = "testdata/kb1/router" })
	s, err := a.RunState(context.Background(), agent.Turn{SessionID: "router-ru", Message: "Как сбросить настройки роутера?"})
	require.NoError(t, err)
	require.NotNil(t, s.Verdict)
	assert.Equal(t, contracts.VerdictPass, s.Verdict.Verdict, "%v", s.Verdict.Reasons)
	assert.Contains(t, s.Answer, "Hold the reset button")
}
