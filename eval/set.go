package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// Kind is what a labelled item measures.
type Kind string

// The kinds of labelled items.
const (
	KindGuard     Kind = "guard"     // text → safety level and categories
	KindRouting   Kind = "routing"   // text → the turn's action
	KindRetrieval Kind = "retrieval" // query → the relevant articles
	KindAnswers   Kind = "answers"   // question → a reference answer
	KindInjection Kind = "injection" // question, run under each injection mode
)

// Kinds lists the kinds in report order.
var Kinds = []Kind{KindGuard, KindRouting, KindRetrieval, KindAnswers, KindInjection}

// The labels a guard and a routing item may carry.
var (
	Levels  = []string{"Safe", "Controversial", "Unsafe"}
	Actions = actionNames()
)

// actionNames is contracts.Actions as the strings a set's lines carry.
func actionNames() []string {
	var names []string
	for _, a := range contracts.Actions() {
		names = append(names, string(a))
	}
	return names
}

// maxLineBytes bounds one line of a set.
const maxLineBytes = 1 << 20

// Item is one labelled line of a set. Which fields it carries depends on
// its kind (docs/eval.md); fields of no kind (an id, a source) are kept
// out of the way and ignored.
type Item struct {
	Kind Kind `json:"kind,omitempty"`
	// ID and Group, when given, are the key that places the item in the
	// development or the held-out part (see Key): rows of one group (one
	// request phrased many ways) fall on one side.
	ID    string `json:"id,omitempty"`
	Group string `json:"group,omitempty"`
	// Text is the message of a guard or routing item.
	Text string `json:"text,omitempty"`
	Lang string `json:"lang,omitempty"`
	// Level, Categories and Lookalike are a guard item's labels;
	// Lookalike marks a benign message that contains a trigger word.
	Level      string   `json:"level,omitempty"`
	Categories []string `json:"categories,omitempty"`
	Lookalike  bool     `json:"lookalike,omitempty"`
	// Pair names the versions of one guard message in other languages:
	// items sharing it should get the same level.
	Pair string `json:"pair,omitempty"`
	// Action is a routing item's expected action.
	Action string `json:"action,omitempty"`
	// Query and KBIDs are a retrieval item; an answers item may name the
	// articles its answer should come from in KBIDs too.
	Query string   `json:"query,omitempty"`
	KBIDs []string `json:"kb_ids,omitempty"`
	// Question is an answers or injection item's message; Reference is
	// an answers item's reference answer.
	Question  string `json:"question,omitempty"`
	Reference string `json:"reference,omitempty"`
	// KB is a folder of articles to answer this item from instead of the
	// configured knowledge base, relative to the set's file unless absolute.
	KB string `json:"kb,omitempty"`
	// Line is the item's line in its file, counted from 1.
	Line int `json:"-"`
}

// Message is what the item sends as the user's message.
func (it Item) Message() string {
	for _, s := range []string{it.Text, it.Query, it.Question} {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// Set is one labelled file.
type Set struct {
	// Name is the file's name without .jsonl: figures are named after it.
	Name string
	// Dir is the folder the file is in, against which an item's KB is read.
	Dir   string
	Items []Item
}

// Has says whether any item of the set is of kind k.
func (s Set) Has(k Kind) bool {
	return slices.ContainsFunc(s.Items, func(it Item) bool { return it.Kind == k })
}

// LoadSets reads the sets the paths name: a .jsonl file, or a folder whose
// .jsonl files (not its subfolders) are each a set.
func LoadSets(paths []string) ([]Set, error) {
	var files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		found, err := filepath.Glob(filepath.Join(p, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no .jsonl set in the folder", p)
		}
		files = append(files, found...)
	}
	var sets []Set
	names := map[string]string{}
	for _, f := range files {
		s, err := LoadSet(f)
		if err != nil {
			return nil, err
		}
		if other, dup := names[s.Name]; dup {
			return nil, fmt.Errorf("%s: a set named %s was read from %s already; figures are named after the file", f, s.Name, other)
		}
		names[s.Name] = f
		sets = append(sets, s)
	}
	return sets, nil
}

// LoadSet reads one set file.
func LoadSet(path string) (Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return Set{}, err
	}
	defer f.Close()
	s, err := ReadSet(f, strings.TrimSuffix(filepath.Base(path), ".jsonl"))
	if err != nil {
		return Set{}, fmt.Errorf("%s: %w", path, err)
	}
	s.Dir = filepath.Dir(path)
	return s, nil
}

// ReadSet reads a set from JSONL: one item per line; blank lines are
// skipped.
func ReadSet(r io.Reader, name string) (Set, error) {
	s := Set{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLineBytes)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if !utf8.Valid(line) {
			return Set{}, fmt.Errorf("line %d: not UTF-8 text; save the set as UTF-8", n)
		}
		it, err := parseItem(line)
		if err != nil {
			return Set{}, fmt.Errorf("line %d: %w", n, err)
		}
		it.Line = n
		s.Items = append(s.Items, it)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return Set{}, fmt.Errorf("line %d: longer than the limit of %d bytes", n+1, maxLineBytes)
		}
		return Set{}, err
	}
	if len(s.Items) == 0 {
		return Set{}, errors.New("no items")
	}
	return s, nil
}

// parseItem decodes one line and settles its kind.
func parseItem(line []byte) (Item, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(line, &keys); err != nil {
		return Item{}, fmt.Errorf("not a JSON object: %w", err)
	}
	var it Item
	if err := json.Unmarshal(line, &it); err != nil {
		return Item{}, err
	}
	if it.Kind == "" {
		it.Kind = kindOf(keys)
	}
	return it, it.validate()
}

// kindOf tells an item's kind from its keys when it names none.
func kindOf(keys map[string]json.RawMessage) Kind {
	has := func(k string) bool { _, ok := keys[k]; return ok }
	switch {
	case has("level"):
		return KindGuard
	case has("action"):
		return KindRouting
	case has("reference"):
		return KindAnswers
	case has("query") && has("kb_ids"):
		return KindRetrieval
	case has("question"):
		return KindInjection
	}
	return ""
}

// validate says which field of the item is missing or out of its domain.
func (it Item) validate() error {
	if it.Kind == "" {
		return errors.New(`cannot tell the item's kind: give "kind" (guard, routing, retrieval, answers, injection) or the keys of one (docs/eval.md)`)
	}
	if !slices.Contains(Kinds, it.Kind) {
		return fmt.Errorf("kind: %q is not one of guard, routing, retrieval, answers, injection", it.Kind)
	}
	if it.Message() == "" {
		return fmt.Errorf("%s item: no message (text, query or question)", it.Kind)
	}
	switch it.Kind {
	case KindGuard:
		if !slices.Contains(Levels, it.Level) {
			return fmt.Errorf("level: %q is not one of %s", it.Level, strings.Join(Levels, ", "))
		}
	case KindRouting:
		if !slices.Contains(Actions, it.Action) {
			return fmt.Errorf("action: %q is not one of %s", it.Action, strings.Join(Actions, ", "))
		}
	case KindRetrieval:
		if len(it.KBIDs) == 0 {
			return errors.New("kb_ids: a retrieval item needs at least one relevant article")
		}
	case KindAnswers:
		if len(ContentTerms(it.Reference)) == 0 {
			return errors.New("reference: no content word (empty, or only stop words)")
		}
	}
	return nil
}
