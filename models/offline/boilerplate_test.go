package offline

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBoilerplate(t *testing.T) {
	headings := headingsOf([]string{"Overriding dependencies\n\n## Working with an unpublished minor version\n\ntext\n\n```\n# a comment\n```"})
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"See Directory Sources.", true},
		{"See [`build.target-dir`] to set via config.", true},
		{"For more information, see the guide.", true},
		{"Seeing the logs helps.", false},
		{"Refer to the size chart provided to ensure a proper fit.", false},
		{"Working with an unpublished minor version", true},
		{"Overriding dependencies", true},
		{"Working with an unpublished minor version is described below.", true},
		{"Working with an unpublished minor version needs a patch entry.", false},
		{"Follow the steps below.", true},
		{"This will output the following HTML.", true},
		{"To set up the tent, follow these steps:", true},
		{"Выполните следующие шаги:", true},
		{"Подробности приведены ниже.", true},
		{"You can run either of the following commands to include draft content.", false},
		{"Install the packages listed below before you start the server.", false},
		{"a comment", false}, // code is no heading
		{"Environment: `CARGO_NET_OFFLINE`", true},
		{"Default: host platform", true},
		{"Type: string or array of strings", true},
		{"title: Demo", true},
		{"Default: the value is read from the file when the server starts.", false},
		{"`enforce`: an Unsafe message ends the turn.", false},
		{"**Weight**: 12 lbs", false},
		{"Customer Support Phone: +1-800-123-4567", false},
		{"Go: go-metrics instrumentation library", false},
		{"Note: a member must be removed first.", false},
	} {
		t.Run(tc.text, func(t *testing.T) {
			assert.Equal(t, tc.want, boilerplate(tc.text, headings))
		})
	}
}

func TestPickLeavesOutBoilerplate(t *testing.T) {
	headings := headingsOf([]string{"Offline mode\n\n## Working offline with vendored sources"})
	articles := []found{{id: "a", title: "Offline mode", headings: headings, chunks: []searchChunk{{ID: "1", Heading: "Offline mode",
		Text: "Offline mode\n\nCargo works offline with the `--offline` flag.\n\n- Working offline with vendored sources\n- Environment: `CARGO_NET_OFFLINE`\n\nSee Vendored Sources."}}}}
	ps := pick("How can cargo work offline?", articles, "", func(string) bool { return false }, func(string) bool { return false })
	var quoted []string
	for _, p := range ps {
		quoted = append(quoted, p.text)
	}
	assert.Equal(t, []string{"Cargo works offline with the `--offline` flag."}, quoted)
}
