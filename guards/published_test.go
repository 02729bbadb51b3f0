package guards

import (
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/sgrgraph/sgrgraph/contracts"
)

// kbArticle publishes a support address and line, as a help centre does.
const kbArticle = "## Contact us\nWrite to Support@Example.com or call +1 (415) 555-0100, Monday to Friday."

func TestPublishedMaskKeepsWhatTheKnowledgeBasePublishes(t *testing.T) {
	p := PublishedIn(kbArticle)
	tests := []struct {
		name, text, want string
	}{
		{"the published address, in another case", "Write to support@example.com.", "Write to support@example.com."},
		{"the published line, written otherwise", "Call +1 415 555 0100.", "Call +1 415 555 0100."},
		{"a customer's address beside it", "support@example.com, not ivan@example.com",
			"support@example.com, not iv************om"},
		{"another number", "Call +1 415 555 0199.", "Call +1***********99."},
		{"a card is never published here", "card 4111 1111 1111 1111", "card 41***************11"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := p.Mask(tc.text)
			assert.Equal(t, tc.want, got)
			assert.Empty(t, p.Find(got), "nothing private the detector knows is left")
		})
	}
	assert.Empty(t, p.Find(kbArticle), "what the article publishes is all held")
}

func TestNothingIsPublishedByDefault(t *testing.T) {
	var p Published
	text := "Write to support@example.com or call +1 415 555 0100."
	assert.Equal(t, MaskSensitiveData(text), p.Mask(text))
	assert.Equal(t, FindSensitiveData(text), p.Find(text))
	assert.Len(t, p.Find(text), 2)
}

func TestPublishedCheckContract(t *testing.T) {
	p := PublishedIn(kbArticle)
	tests := []struct {
		name, draft string
		ok          bool
		reason      string
	}{
		{"quotes the support address", "Write to support@example.com [1]", true, "ok"},
		{"quotes the support line", "Call +1 (415) 555-0100 on weekdays [1]", true, "ok"},
		{"repeats a customer's address", "We wrote to ivan@example.com [1]", false, "sensitive_data_detected=[email]"},
		{"the support address and a customer's", "support@example.com, ivan@example.com", false, "sensitive_data_detected=[email]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := p.CheckContract(c.ArchitectSpec{}, tc.draft)
			assert.Equal(t, tc.ok, got.OK)
			assert.Equal(t, tc.reason, got.Reason)
			assert.False(t, CheckContract(c.ArchitectSpec{}, tc.draft).OK, "with nothing published every value fails")
		})
	}
}

func FuzzPublishedMask(f *testing.F) {
	for _, seed := range []string{kbArticle, "support@example.com +1 415 555 0100 4111111111111111", "ivan@example.com"} {
		f.Add(seed)
	}
	p := PublishedIn(kbArticle)
	f.Fuzz(func(t *testing.T, text string) {
		got := p.Mask(text)
		if found := p.Find(got); len(found) > 0 {
			t.Fatalf("Mask(%q) = %q still holds %v", text, got, found)
		}
		if len(got) != len(text) {
			t.Fatalf("Mask(%q) changed the length: %q", text, got)
		}
	})
}
