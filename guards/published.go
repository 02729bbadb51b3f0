package guards

import (
	"strings"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// Published holds the values that read as personal data but that the
// knowledge base publishes itself: a support line, a team's address.
// Quoting one answers the question "how do I reach you?"; it leaks
// nothing. The contract check passes such a value and masking keeps it.
// The zero Published holds none: every value found is private.
type Published struct {
	values map[string]bool
}

// PublishedIn is every value the sensitive-data detector finds in texts,
// the knowledge base's articles.
func PublishedIn(texts ...string) Published {
	p := Published{values: map[string]bool{}}
	for _, t := range texts {
		for _, sp := range findSensitive(t) {
			p.values[canonical(sp.kind, t[sp.start:sp.end])] = true
		}
	}
	return p
}

// Find is FindSensitiveData without the values p holds.
func (p Published) Find(text string) []SensitiveMatch {
	spans := p.private(text, findSensitive(text))
	if len(spans) == 0 {
		return nil
	}
	found := make([]SensitiveMatch, len(spans))
	for i, sp := range spans {
		found[i] = SensitiveMatch{Kind: sp.kind, Value: redact(text[sp.start:sp.end]), Offset: sp.start}
	}
	return found
}

// Mask is MaskSensitiveData keeping the values p holds: the result holds
// no value the detector knows but those.
func (p Published) Mask(text string) string {
	for {
		spans := p.private(text, findSensitive(text))
		if len(spans) == 0 {
			return text
		}
		var b strings.Builder
		b.Grow(len(text))
		at := 0
		for _, sp := range merge(spans) {
			b.WriteString(text[at:sp.start])
			b.WriteString(redact(text[sp.start:sp.end]))
			at = sp.end
		}
		b.WriteString(text[at:])
		text = b.String()
	}
}

// CheckContract is the package's CheckContract with the values p holds
// allowed in the draft: an answer that quotes the knowledge base's support
// address passes, one that repeats a customer's does not.
func (p Published) CheckContract(spec contracts.ArchitectSpec, draft string) contracts.CheckResult {
	return checkContract(spec, draft, p.Find)
}

// private is the spans of text whose values p does not hold.
func (p Published) private(text string, spans []span) []span {
	if len(p.values) == 0 {
		return spans
	}
	out := spans[:0]
	for _, sp := range spans {
		if !p.values[canonical(sp.kind, text[sp.start:sp.end])] {
			out = append(out, sp)
		}
	}
	return out
}

// canonical is a value as it is compared: an address in lower case, a
// number by its digits alone ("+1 (800) 555-0199" and "+1 800 555 0199"
// are both 18005550199), each with its kind.
func canonical(kind, value string) string {
	if kind == "email" {
		return kind + ":" + strings.ToLower(value)
	}
	return kind + ":" + digits(value)
}
