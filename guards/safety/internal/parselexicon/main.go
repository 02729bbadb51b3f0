// Command parselexicon writes the embedded lexicon decoded and its
// triggers parsed (lexicon.parsed.json) from lexicon.yaml, so that a
// process does not do it on its first message. `go generate
// ./guards/safety` runs it in the package directory.
package main

import (
	"fmt"
	"os"

	"github.com/sgrgraph/sgrgraph/guards/safety"
)

func main() {
	lexicon, err := os.ReadFile("lexicon.yaml")
	var b []byte
	if err == nil {
		b, err = safety.ParsedLexicon(lexicon)
	}
	if err == nil {
		err = os.WriteFile("lexicon.parsed.json", b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "parselexicon:", err)
		os.Exit(1)
	}
	fmt.Printf("lexicon.parsed.json: %d bytes\n", len(b))
}
