package eval

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBaselineRanksParagraphsByBM25(t *testing.T) {
	b := NewBaseline([]string{
		"# Tents\n\nPitch the tent on level, flat ground.\n\nThe tent weighs 12 lbs.\n\n---",
		"# Stoves\n\nThe stove boils water in four minutes.\n\nKeep the stove away from the tent, the tent burns.",
	})
	// "# Tents", the two tent paragraphs, "# Stoves" and the two stove
	// paragraphs; the rule "---" has no term.
	assert.Len(t, b.paragraphs, 6)

	assert.Equal(t, []string{"The stove boils water in four minutes."}, b.Top("boil water", 3),
		"a paragraph sharing no term with the query is never returned")
	assert.Empty(t, b.Top("mortgage", 3))
	// "tent" is in three paragraphs; the one saying it twice wins, then
	// the shorter of the others.
	assert.Equal(t, []string{"Keep the stove away from the tent, the tent burns.", "The tent weighs 12 lbs.", "Pitch the tent on level, flat ground."},
		b.Top("tent", 3))
	assert.Len(t, b.Top("tent", 1), 1)
	assert.Equal(t, "The stove boils water in four minutes.\n\nKeep the stove away from the tent, the tent burns.", b.Answer("stove"))
}

func TestBaselineScoreIsBM25(t *testing.T) {
	b := NewBaseline([]string{"alpha beta\n\nalpha alpha gamma delta\n\nepsilon"})
	// N 3, df(alpha) 2, average length 7/3; the second paragraph: tf 2,
	// length 4; the first: tf 1, length 2.
	idf := math.Log(1 + (3-2+0.5)/(2+0.5))
	assert.InDelta(t, idf*2*2.2/(2+1.2*(0.25+0.75*4/(7.0/3))), b.score(1, []string{"alpha"}), 1e-12)
	assert.InDelta(t, idf*1*2.2/(1+1.2*(0.25+0.75*2/(7.0/3))), b.score(0, []string{"alpha"}), 1e-12)
	assert.Zero(t, b.score(2, []string{"alpha"}))
	assert.Equal(t, []string{"alpha alpha gamma delta", "alpha beta"}, b.Top("alpha", 3))
	assert.Equal(t, "", b.Answer(strings.Repeat(" ", 3)))
}

func TestBestParagraphHoldsMostOfTheReference(t *testing.T) {
	b := NewBaseline([]string{
		"The stove boils water in four minutes.\n\nThe stove folds into its pot and weighs 300 grams.",
		"The tent weighs 12 lbs.",
	})
	// Reference terms: stove, weighs, 300, grams. The second paragraph
	// holds all four; the tent's holds only "weighs".
	assert.Equal(t, "The stove folds into its pot and weighs 300 grams.", b.BestParagraph("The stove weighs 300 grams."))
	assert.Equal(t, "", b.BestParagraph("mortgage rates"), "no paragraph holds any term")

	long := strings.Repeat("filler ", AnswerWords) + "answer"
	b = NewBaseline([]string{long + "\n\nThe answer is short."})
	assert.Equal(t, "The answer is short.", b.BestParagraph("answer"),
		"a term past the first AnswerWords words of a paragraph is not held")
}

func TestFirstWordsCutsAfterTheNthWord(t *testing.T) {
	assert.Equal(t, "one, two", firstWords("one, two three", 2))
	assert.Equal(t, "key-value", firstWords("key-value store", 2), "words as WordCount counts them")
	assert.Equal(t, "short", firstWords("short", 5))
	assert.Equal(t, "", firstWords("word", 0))
	assert.Equal(t, 120, WordCount(firstWords(strings.Repeat("да нет ", 100), 120)))
}
