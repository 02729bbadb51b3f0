// Command spamtrain trains the offline engine's spam model and counts the
// background words of its off-topic score, from the training sets in
// tests/testdata/offtopic/train (see the README there for sources and
// licences). `go generate ./models/offline` runs it; the same sets give
// the same files, byte for byte.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sgrgraph/sgrgraph/models/offline/internal/textmodel"
)

type line struct {
	Text  string `json:"text"`
	Label string `json:"label"`
}

func main() {
	data := flag.String("data", "../../tests/testdata/offtopic/train", "folder of the training sets")
	weights := flag.String("weights", "spam_weights.bin", "file the model's weights are written to")
	background := flag.String("background", "background.tsv", "file the background word counts are written to")
	flag.Parse()
	if err := run(*data, *weights, *background); err != nil {
		fmt.Fprintln(os.Stderr, "spamtrain:", err)
		os.Exit(1)
	}
}

func run(data, weightsPath, backgroundPath string) error {
	var samples []textmodel.Sample
	counts := map[string]int{}
	docs := 0
	for _, name := range []string{"sms.jsonl", "clinc150.jsonl", "hwu64.jsonl", "banking77.jsonl", "own.jsonl"} {
		lines, err := read(filepath.Join(data, name))
		if err != nil {
			return err
		}
		for _, l := range lines {
			if l.Label != "spam" && l.Label != "ham" {
				return fmt.Errorf("%s: label %q is not spam or ham", name, l.Label)
			}
			// Commands to a voice assistant are everyday words, not lines
			// of the spam model: as ham they outweigh the Russian
			// advertising, which they have nothing to say about.
			if name != "hwu64.jsonl" {
				samples = append(samples, textmodel.Sample{Text: l.Text, Spam: l.Label == "spam"})
			}
			// The background is everyday language of any domain: the
			// messages that are neither spam nor banking, which would make
			// a bank's own words look common.
			if l.Label == "ham" && name != "banking77.jsonl" && name != "own.jsonl" {
				docs++
				seen := map[string]bool{}
				for _, w := range textmodel.Tokens(l.Text) {
					if !seen[w] {
						seen[w] = true
						counts[w]++
					}
				}
			}
		}
	}
	m, err := textmodel.Train(samples, 6)
	if err != nil {
		return err
	}
	b, _ := m.MarshalBinary()
	if err := os.WriteFile(weightsPath, b, 0o644); err != nil {
		return err
	}
	words := make([]string, 0, len(counts))
	for w, n := range counts {
		if n >= 2 && !strings.ContainsAny(w, "\t\n") {
			words = append(words, w)
		}
	}
	sort.Strings(words)
	var out strings.Builder
	fmt.Fprintf(&out, "<messages>\t%d\n", docs)
	for _, w := range words {
		fmt.Fprintf(&out, "%s\t%d\n", w, counts[w])
	}
	return os.WriteFile(backgroundPath, []byte(out.String()), 0o644)
}

func read(path string) ([]line, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []line
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, l)
	}
	return out, sc.Err()
}
