package offline

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAnUnderlinedLineIsAHeading(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []unit
	}{
		{"= under a line", "Learner vs. Mirror Maker\n========================\n\nMirroring usually has low latency overhead.",
			[]unit{{"Mirroring usually has low latency overhead.", "Learner vs. Mirror Maker"}}},
		{"- under a line", "Balancer Limitation: clientv3\n---\nIt opens one connection per endpoint.",
			[]unit{{"It opens one connection per endpoint.", "Balancer Limitation: clientv3"}}},
		{"a rule between paragraphs", "The first part ends here.\n\n---\n\nThe second part starts here.",
			[]unit{{"The first part ends here.", "Guide"}, {"The second part starts here.", "Guide"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, sentenceUnits(tc.text, "Guide"))
		})
	}
}
