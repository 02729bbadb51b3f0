package offline

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTableRow(t *testing.T) {
	for _, tc := range []struct {
		name, header, row, want string
	}{
		{"two columns: the first names the row", "| code | meaning |", "| 130 | SIGINT (Ctrl-C) ended the command |", "code 130: SIGINT (Ctrl-C) ended the command"},
		{"more columns: each cell named", "| flag | range | note |", "| `--limit` | 0 and up | 0 runs every row |", "flag `--limit`: range 0 and up; note 0 runs every row"},
		{"a blank header cell names nothing", "| flag | range | |", "| `--rows` | 1 to 1,000,000 | only with `--make-example` |", "flag `--rows`: range 1 to 1,000,000; only with `--make-example`"},
		{"an empty cell is left out", "| a | b | c |", "| x |  | z |", "a x: c z"},
		{"the separator row states nothing", "| a | b |", "|---|:---:|", ""},
		{"one cell states nothing", "| a |", "| x |", ""},
		{"nothing told states nothing", "| a | b |", "| x | |", ""},
		{"no name states nothing", "| a | b |", "| | y |", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tableRow(cells(tc.header), cells(tc.row)))
		})
	}
}

func TestSentencesQuoteTableRows(t *testing.T) {
	text := "## Exit codes\n\n| code | meaning |\n|---|---|\n| 0 | the command did what was asked |\n| 130 | SIGINT (Ctrl-C) ended the command |\n\nThe second table lists one row more:\n\n| x | y |\n|---|---|\n| 1 | one |\n"
	assert.Equal(t, []unit{
		{"code 0: the command did what was asked", "Exit codes"},
		{"code 130: SIGINT (Ctrl-C) ended the command", "Exit codes"},
		{"The second table lists one row more:", "Exit codes"},
		{"x 1: one", "Exit codes"},
	}, sentenceUnits(text, ""))
}

func TestStatement(t *testing.T) {
	for _, tc := range []struct {
		text string
		item bool
		want bool
	}{
		{"Set the mode with `guard.mode` in the configuration.", false, true},
		{"Flags: `--addr`, `--api-key`", false, true},
		{"Polyester material for durability", true, true},
		{"Guard > Modes", false, false},
		{"prometheus --config.file=prometheus.yml", false, false},
		{"![The chat on a phone](images/web-chat-phone.png)", false, false},
		{`<iframe src="https://example.com/v"></iframe>`, false, false},
		{"Dual burners", true, false},
		{"TrailMaster X4 Tent, price $250,", false, true},
		{"Рюкзак, цена 4 500 ₽", false, true},
		{"Version 3.5 of the tool", false, false},
		{"**Share your profile with a QR code**", true, false}, // a heading in bold
		{"**Exclusions:** The warranty does not cover accidents.", true, true},
	} {
		assert.Equal(t, tc.want, statement(tc.text, tc.item), "%q (list item %v)", tc.text, tc.item)
	}
}

func TestSplitSentencesKeepsAbbreviations(t *testing.T) {
	for text, want := range map[string][]string{
		"**Packed Weight**: Approx. 8 lbs":           {"**Packed Weight**: Approx. 8 lbs"},
		"Check it in (e.g. with git). Then build.":   {"Check it in (e.g. with git).", "Then build."},
		"Tents vs. tarps. Both work.":                {"Tents vs. tarps.", "Both work."},
		"Укажите адрес, т.е. хост. Затем порт.":      {"Укажите адрес, т.е. хост.", "Затем порт."},
		"It ends here. Another one! A question? Yes": {"It ends here.", "Another one!", "A question?", "Yes"},
	} {
		assert.Equal(t, want, splitSentences(text), text)
	}
}
