package offline

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sgrgraph/sgrgraph/contracts"
)

var gear = []found{
	{id: "tent", title: "TrailMaster X4 Tent", chunks: []searchChunk{
		{Heading: "TrailMaster X4 Tent > Technical Specs", Text: "TrailMaster X4 Tent > Technical Specs\n\n**Capacity**: 4-person  \n**Weight**: 12 lbs  \n**Season Rating**: 3-season"},
		{Heading: "TrailMaster X4 Tent > Warranty Information", Text: "The TrailMaster X4 Tent is covered by a 2-year limited warranty from the date of purchase."},
		{Heading: "TrailMaster X4 Tent > Reviews", Text: "I love this tent, it weighs nothing at all and the warranty is great."},
	}},
	{id: "stove", title: "EcoFire Camping Stove", chunks: []searchChunk{
		{Heading: "EcoFire Camping Stove > Technical Specs", Text: "**Weight**: 2 lbs  \n**Fuel**: wood"},
		{Heading: "EcoFire Camping Stove > Warranty Information", Text: "The EcoFire Camping Stove has a 1-year warranty."},
	}},
}

func TestPickAnswersFromTheArticleAsked(t *testing.T) {
	for _, tc := range []struct {
		question string
		want     []string // pieces of the sentences picked
		not      []string
	}{
		{"How much does the TrailMaster X4 Tent weigh?", []string{"12 lbs"}, []string{"**Weight**: 2 lbs", "weighs nothing"}},
		{"Is there a warranty on the TrailMaster X4 Tent?", []string{"2-year limited warranty"}, []string{"1-year", "warranty is great"}},
		{"What do reviews say about the TrailMaster X4 Tent warranty?", []string{"warranty is great"}, []string{"1-year"}},
		{"Which weighs less, the TrailMaster X4 Tent or the EcoFire Camping Stove?", []string{"**Weight**: 12 lbs", "**Weight**: 2 lbs"}, nil},
	} {
		t.Run(tc.question, func(t *testing.T) {
			var got []string
			words := 0
			for _, c := range pick(tc.question, gear, "") {
				got = append(got, c.text)
				words += c.words
			}
			joined := strings.Join(got, "\n")
			for _, w := range tc.want {
				assert.Contains(t, joined, w)
			}
			for _, w := range tc.not {
				assert.NotContains(t, joined, w, "another product's facts, or an opinion not asked for")
			}
			assert.LessOrEqual(t, words, maxAnswerWords)
		})
	}
}

func TestAPurchaseWithoutANameIsAskedAbout(t *testing.T) {
	e := New(Options{Corpus: []string{"TrailMaster X4 Tent\nA tent for four people with a 2-year warranty. Returns are accepted within 30 days of purchase, with a full refund."}, Product: "Contoso"})
	for _, tc := range []struct {
		request string
		action  contracts.Action
	}{
		{"Can I return the one I bought last week?", contracts.ActionClarify},
		{"Where is my order?", contracts.ActionClarify},
		{"I bought the TrailMaster X4 Tent, what is its warranty?", contracts.ActionNormal},
	} {
		p := e.analyse(tc.request, "").plan
		assert.Equal(t, tc.action, p.Action, tc.request)
		if tc.action == contracts.ActionClarify {
			assert.Contains(t, p.ClarificationQuestion, "Which product or order", tc.request)
		}
	}
}
