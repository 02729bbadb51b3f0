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

func TestAListOfNamesIsQuotedWithTheLineThatAnnouncesIt(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []unit
	}{
		{"announced", "Validation occurs when any of the following commands are invoked:\n\n- `helm install`\n- `helm upgrade`\n- `helm lint`\n\nThe schema is checked first.",
			[]unit{{"Validation occurs when any of the following commands are invoked:", "Guide"},
				{"Validation occurs when any of the following commands are invoked: `helm install`, `helm upgrade`, `helm lint`", "Guide"},
				{"The schema is checked first.", "Guide"}}},
		{"announced, then a heading", "Choose a library in the language your application is written in:\n\n* Go\n* Java or Scala\n\n## Next",
			[]unit{{"Choose a library in the language your application is written in:", "Guide"},
				{"Choose a library in the language your application is written in: Go, Java or Scala", "Guide"}}},
		{"no line announces it: its longer items alone", "- Adjusting the fit\n- Storage guidelines and care\n- Go",
			[]unit{{"Storage guidelines and care", "Guide"}}},
		{"no line announces it: no name of three words alone", "- Mobile check deposits\n- Account existence confirmed\n- Wire transfers sent the same day before 3 PM",
			[]unit{{"Wire transfers sent the same day before 3 PM", "Guide"}}},
		{"a setting's properties, lined up", "Follow symlinks.\n\nProperties:\n\n- Config:      copy_links\n- Env Var:     RCLONE_LOCAL_COPY_LINKS\n- Type:        bool",
			[]unit{{"Properties: Config: copy_links, Env Var: RCLONE_LOCAL_COPY_LINKS, Type: bool", "Guide"}}},
		{"a feature's label says what it is: each item as before", "Features:\n\n- **Hood**: Keeps your head warm and protected.\n- Weight: 3 lbs and a half",
			[]unit{{"**Hood**: Keeps your head warm and protected.", "Guide"}, {"Weight: 3 lbs and a half", "Guide"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, sentenceUnits(tc.text, "Guide"))
		})
	}
}
