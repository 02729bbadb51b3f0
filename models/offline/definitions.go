package offline

import (
	"regexp"
	"strings"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// A question that asks what something is ("What is etcd?", "Что такое
// библиотечный чарт?") is answered by the sentence that says it ("etcd is
// a consistent and durable key value store"). Its words are the thing's
// name alone, which the knowledge base may say in every article, so a
// search for them finds any passage: the sentence is looked up by the name
// instead, and its words searched for.

// definitionSentence finds, at the start of a sentence, a name of one to
// four words on one line (after "the", "a" or "an") followed by
// "is"/"are" and "a", "an" or "the", or by "— это" / "является": its first
// group is the name.
var definitionSentence = regexp.MustCompile(`(?:^|[.!?][ \t]+)(?:(?:[Tt]he|[Aa]n?)[ \t]+)?` +
	`([\p{L}\d][\p{L}\d'-]*(?:[ \t]+[\p{L}\d][\p{L}\d'-]*){0,3})` +
	`(?:[ \t]+(?:is|are)[ \t]+(?:an?|the)[ \t]|[ \t]+(?:—|-)[ \t]+это[ \t]|[ \t]+являет)[^.!?\n]{8,240}[.!?]?`)

// definitions are the knowledge base's defining sentences by the name they
// define, lower case, the first one of each name in the articles' order.
func definitions(corpus []string) map[string]string {
	out := map[string]string{}
	for _, text := range corpus {
		for line := range strings.Lines(text) {
			// Most lines hold no copula: the expression is not run on them.
			if !strings.Contains(line, " is ") && !strings.Contains(line, " are ") && !strings.Contains(line, "это") && !strings.Contains(line, "являет") {
				continue
			}
			for _, m := range definitionSentence.FindAllStringSubmatchIndex(line, -1) {
				name := strings.ToLower(line[m[2]:m[3]])
				if _, ok := out[name]; !ok {
					out[name] = strings.TrimSpace(strings.TrimLeft(line[m[0]:m[1]], ".!? \t\n"))
				}
			}
		}
	}
	return out
}

// definedName is the name a question asks to define, lower case: its
// content words, when it asks what something is; "" otherwise.
func definedName(request string) string {
	if requestType(request) != contracts.RequestDataDefinition {
		return ""
	}
	return strings.Join(contentWords(request), " ")
}

// defines: the sentence says what name is.
func defines(sentence, name string) bool {
	if name == "" {
		return false
	}
	s := strings.ToLower(sentence)
	for _, article := range []string{"the ", "a ", "an "} {
		s = strings.TrimPrefix(s, article)
	}
	rest, ok := strings.CutPrefix(s, name)
	if !ok {
		return false
	}
	for _, copula := range []string{" is ", " are ", " — это ", " - это ", " является", " являются"} {
		if strings.HasPrefix(rest, copula) {
			return true
		}
	}
	return false
}
