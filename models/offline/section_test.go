package offline

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSectionPassages(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"a paragraph as it is", "Payments post the same day.\nWeekends excepted.", []string{"Payments post the same day. Weekends excepted."}},
		{"items under their label", "**Via Online Banking:**\n1. Log in\n2. Go to \"Bill Pay\"\n\n**Via Phone:**\n- Call us",
			[]string{"Via Online Banking: Log in; Go to \"Bill Pay\"", "Via Phone: Call us"}},
		{"an item that announces its own", "**Via App:**\n1. Open the app\n2. Choose amount:\n   - Minimum\n   - Full balance",
			[]string{"Via App: Open the app; Choose amount: Minimum; Full balance"}},
		{"a list item labels its sub-items", "1. **Mobile App**:\n   - Open app\n   - Tap Activate", []string{"Mobile App: Open app; Tap Activate"}},
		{"items with no label", "- Free for defective cards\n- $15 for expedited shipping", []string{"Free for defective cards; $15 for expedited shipping"}},
		{"a FAQ's answer mark", "**A:** Yes, at any branch.", []string{"Yes, at any branch."}},
		{"a label alone", "Easy setup in multiple ways:\n\nVia Phone:\n- Call us", []string{"Easy setup in multiple ways:", "Via Phone: Call us"}},
		{"an image alone is left out", "Jest prints this output:\n\n![](/img/content/failedSnapshotTest.png)\n\nUpdate the snapshot.",
			[]string{"Jest prints this output:", "Update the snapshot."}},
		{"badges and images side by side", "[![build](https://ci.example/b.svg)](https://ci.example) ![a](x_(1).png)\n\nText here.", []string{"Text here."}},
		{"a bold sentence is a sentence", "**Deleting a vault cannot be undone.**\n\nBack it up first.", []string{"Deleting a vault cannot be undone.", "Back it up first."}},
		{"a bold line of its own is a heading", "Intro line.\n\n**Linking within the same note**\n\nType a hash.\n\n**Via Phone:**\n- Call us",
			[]string{"Intro line.", "Type a hash.", "Via Phone: Call us"}},
		{"code, tables, rules and links left out", "Run it:\n\n```\nbank pay --auto\n```\n\n| a | b |\n|---|---|\n\n---\n\n- [Card policy](card.md) - cards\n- Works offline",
			[]string{"Run it: Works offline"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, sectionPassages(tc.text))
		})
	}
}

func TestAsksHeading(t *testing.T) {
	weight := []weighted{{formStem("auto"), 2}, {formStem("pay"), 2}, {formStem("card"), 1}}
	for _, tc := range []struct {
		heading string
		want    bool
	}{
		{"Q: How do I set up auto-pay for my credit card?", true},
		{"Auto-pay", true},
		{"Card payments", false}, // two of its words, not most of the weight
		{"Pay", false},           // most of the weight would take a second word
		{"Opening hours", false},
	} {
		assert.Equal(t, tc.want, asksHeading(headingStems(tc.heading), weight), tc.heading)
	}
}

// TestAQuestionASectionsHeadingAsksIsAnsweredFromThatSection: the FAQ
// entry that states the question answers it, its steps in order and under
// their labels, and no line of another article is quoted beside it.
func TestAQuestionASectionsHeadingAsksIsAnsweredFromThatSection(t *testing.T) {
	faq := "**A:** In two ways:\n\n**Via Online Banking:**\n1. Log in to online banking\n2. Click \"Automatic Payments\"\n3. Review and confirm\n\n**Via Phone:**\n- Call 1-800-555-0100 and follow the auto-pay prompts"
	articles := []found{
		{id: "policy", title: "Payment policy", chunks: []searchChunk{{ID: "policy#0", Heading: "Payment policy",
			Text: "Payment policy\n\n- Credit card payments post in one day.\n- Auto-pay runs on the due date for credit cards."}}},
		{id: "faq", title: "Payment FAQ", chunks: []searchChunk{{ID: "faq#3", Heading: "Payment FAQ > Q: How do I set up auto-pay for my credit card?",
			Text: "Payment FAQ > Q: How do I set up auto-pay for my credit card?\n\n" + faq}}},
	}
	ps := pick("How do I set up auto-pay for my credit card?", articles, "", nowhere, nowhere)
	require.NotEmpty(t, ps)
	var texts []string
	for _, p := range ps {
		assert.Equal(t, 1, p.article, "quoted from the FAQ entry alone: %q", p.text)
		texts = append(texts, p.text)
	}
	assert.Equal(t, []string{"In two ways:", "Via Online Banking: Log in to online banking; Click \"Automatic Payments\"; Review and confirm",
		"Via Phone: Call 1-800-555-0100 and follow the auto-pay prompts"}, texts)

	// Asked in other words than its heading's, the answer is put together
	// from what the found passages say, as before.
	ps = pick("Can payments run automatically?", articles, "", nowhere, nowhere)
	for _, p := range ps {
		assert.False(t, strings.HasPrefix(p.text, "Via Online Banking:"), "no section quoted whole: %q", p.text)
	}
}
