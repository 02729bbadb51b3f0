package safety

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp/syntax"
)

// The embedded lexicon, decoded and its triggers parsed ahead of time.
// Decoding the YAML, parsing every entry's patterns and listing the words a
// match may begin with were what a process paid for the lexicon on its
// first message (4 to 7 ms of each `sgrgraph ask`); `go generate
// ./guards/safety` writes them here with the SHA-256 of the lexicon.yaml
// they were read from, and a lexicon.yaml that is not that one is read as
// before.
//
//go:embed lexicon.parsed.json
var embeddedParsed []byte

// parsedLexicon is a lexicon's text decoded and its triggers parsed.
type parsedLexicon struct {
	Sum      string          `json:"sum"` // of the lexicon's text
	Lexicon  Lexicon         `json:"lexicon"`
	Triggers []parsedTrigger `json:"triggers"` // one an entry, in order
}

// parsedTrigger is what the rules keep of an entry's trigger once parsed:
// how many spaces a match of it spans, which the window is counted from,
// and the literal prefixes every match begins with (nil: none known, the
// whole message is searched).
type parsedTrigger struct {
	Spaces   int      `json:"spaces"`
	Prefixes []string `json:"prefixes"`
}

// triggerPattern is the one regular expression an entry's match patterns
// make, each from the space before a word.
func triggerPattern(e Entry) string { return ` (?:` + alternation(e.Match) + `)` }

// parseTriggers parses every entry's trigger.
func parseTriggers(lex Lexicon) ([]parsedTrigger, error) {
	out := make([]parsedTrigger, len(lex.Entries))
	for i, e := range lex.Entries {
		re, err := syntax.Parse(triggerPattern(e), syntax.Perl)
		if err != nil { // a lexicon not validated: the embedded one, which the tests validate
			return nil, fmt.Errorf("lexicon entry %s: match: %w", e.ID, err)
		}
		out[i] = parsedTrigger{Spaces: spaces(re), Prefixes: prefixesOfParsed(re)}
	}
	return out, nil
}

// ParsedLexicon is the lexicon whose YAML text is lexicon, decoded and
// its triggers parsed, as `go generate` writes it beside it
// (lexicon.parsed.json).
func ParsedLexicon(lexicon []byte) ([]byte, error) {
	lex, err := decodeLexicon(lexicon, "lexicon")
	if err != nil {
		return nil, err
	}
	triggers, err := parseTriggers(lex)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(parsedLexicon{Sum: textSum(lexicon), Lexicon: lex, Triggers: triggers}, "", " ")
	return append(b, '\n'), err
}

// storedParsed is the embedded parsed lexicon when it was read from this
// lexicon text.
func storedParsed(lexicon []byte) (parsedLexicon, bool) {
	var p parsedLexicon
	if json.Unmarshal(embeddedParsed, &p) != nil || p.Sum != textSum(lexicon) || len(p.Triggers) != len(p.Lexicon.Entries) {
		return parsedLexicon{}, false
	}
	return p, true
}

func textSum(text []byte) string {
	sum := sha256.Sum256(text)
	return hex.EncodeToString(sum[:])
}
