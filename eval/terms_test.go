package eval

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestContentTerms(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"How do I configure the guard?", []string{"config", "guard"}},
		{"Set the mode with guard.mode [2]", []string{"set", "mode", "guard"}},
		{"Как настроить фильтр для продукта?", []string{"настро", "фильтр", "продук"}},
		{"Port 8080, a 5 m cable", []string{"port", "8080", "5", "cable"}},
		{"the and of", nil},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			assert.Equal(t, tc.want, ContentTerms(tc.text))
		})
	}
}

func TestTermRecall(t *testing.T) {
	tests := []struct {
		name              string
		reference, answer string
		want              float64
		ok                bool
	}{
		// Reference terms: set, mode, guard, config (4); the answer has
		// mode, guard and configuration (stem config): 3/4.
		{"three of four", "Set the mode in the guard configuration.", "The guard mode is in its configuration file.", 0.75, true},
		{"stems match inflections", "Настройка фильтра", "Настройте фильтр", 1, true},
		{"nothing shared", "enforce refuses", "report continues", 0, true},
		{"stop words only", "how is it", "anything", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := TermRecall(tc.reference, tc.answer)
			assert.Equal(t, tc.ok, ok)
			assert.InDelta(t, tc.want, got, 1e-9)
		})
	}
}

func TestWordCount(t *testing.T) {
	assert.Equal(t, 6, WordCount("Set the mode with guard.mode [1]"), "guard.mode is two words, [1] none")
	assert.Equal(t, 3, WordCount("Фильтр проверяет сообщение."))
	assert.Equal(t, 0, WordCount(""))
}

func TestPlanConsistency(t *testing.T) {
	tests := []struct {
		name       string
		subqueries []string
		searches   []string
		answer     string
		want       float64
		ok         bool
	}{
		{"every subquery searched", []string{"configure guard", "guard mode"}, []string{"configure guard", "guard mode"}, "", 1, true},
		// "batch xlsx" has neither term in the searches or the answer.
		{"one of two followed", []string{"guard mode", "batch xlsx"}, []string{"guard"}, "the mode is enforce", 0.5, true},
		// Half of a subquery's terms are enough: "threads postgres" → threads found.
		{"half the terms count", []string{"threads postgres"}, nil, "threads live in SQLite", 1, true},
		{"no plan", nil, []string{"guard"}, "answer", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := PlanConsistency(tc.subqueries, tc.searches, tc.answer)
			assert.Equal(t, tc.ok, ok)
			assert.InDelta(t, tc.want, got, 1e-9)
		})
	}
}
