package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// DecodedPlan is a plan read from a model's tool-call arguments, with a note
// for every repair made on the way so that nothing the model sent is lost
// without a trace.
type DecodedPlan struct {
	Plan  contracts.SGRPlan
	Notes []string
}

// limit returns the schema's maxLength or maxItems of a field: the same
// numbers as the struct tags of contracts.SGRPlan (a test keeps them equal).
func limit(key string) int {
	switch key {
	case "spam_reason":
		return 150
	case "user_intent", "clarification_question":
		return 300
	case "topic":
		return 100
	case "category":
		return 64
	case "subqueries", "action_plan":
		return 10
	case "uncertainties":
		return 5
	}
	return 0
}

// actionAlias maps the origin system's action names onto ours.
func actionAlias(s string) (contracts.Action, bool) {
	switch s {
	case "proceed":
		return contracts.ActionNormal, true
	case "ask_clarification":
		return contracts.ActionClarify, true
	case "decline":
		return contracts.ActionBlock, true
	}
	return "", false
}

// DecodePlan reads analyse_user_request arguments leniently, as the origin
// system did: null lists become empty, a string where a list is expected
// becomes a one-item list, numbers given as strings are read, scores out of
// [0,1] are clamped, over-long text is cut, origin action names are mapped.
// Every such repair is reported in Notes. Only arguments that are not one
// JSON object are an error; use ValidatePlan for what must hold after.
//
// The plan returned is a fixed point: encoded and decoded again, it comes
// back unchanged and with no notes.
func DecodePlan(arguments string) (DecodedPlan, error) {
	raw, err := decodeObject(stripFence(arguments))
	if err != nil {
		return DecodedPlan{}, fmt.Errorf("%s arguments: not a JSON object: %w", SGRToolName, err)
	}
	d := &decoder{raw: raw}
	p := contracts.SGRPlan{
		SpamScore:             d.score("spam_score"),
		SpamReason:            d.text("spam_reason", asIs),
		UserIntent:            d.text("user_intent", asIs),
		Topic:                 d.text("topic", asIs),
		Category:              d.text("category", strings.ToLower),
		RequestType:           contracts.RequestType(d.text("request_type", strings.ToUpper)),
		AnswerLanguage:        d.text("answer_language", languageCode),
		Subqueries:            d.list("subqueries"),
		ActionPlan:            d.list("action_plan"),
		IntentConfidence:      d.score("intent_confidence"),
		Uncertainties:         d.list("uncertainties"),
		Action:                d.action(),
		ClarificationQuestion: d.text("clarification_question", asIs),
	}
	for key := range raw {
		if !d.seen[key] {
			d.note("ignored unknown field %q", key)
		}
	}
	return DecodedPlan{Plan: p, Notes: d.notes}, nil
}

// decodeObject reads exactly one JSON object. Numbers stay text, so that
// one out of float64's range is a repairable field, not a broken object.
func decodeObject(s string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, errors.New("null")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more data after the object")
	}
	return raw, nil
}

type decoder struct {
	raw   map[string]any
	seen  map[string]bool
	notes []string
}

func (d *decoder) note(format string, args ...any) {
	d.notes = append(d.notes, fmt.Sprintf(format, args...))
}

func (d *decoder) get(key string) (any, bool) {
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	d.seen[key] = true
	v, ok := d.raw[key]
	return v, ok && v != nil
}

func (d *decoder) score(key string) float64 {
	v, ok := d.get(key)
	if !ok {
		return 0
	}
	f, ok := number(v)
	if !ok {
		d.note("%s: %v is not a number, read as 0", key, v)
		return 0
	}
	if f < 0 || f > 1 {
		clamped := min(max(f, 0), 1)
		d.note("%s: %g out of range [0,1], clamped to %g", key, f, clamped)
		return clamped
	}
	return f + 0 // -0 becomes 0: a score has no sign
}

func asIs(s string) string { return s }

// text reads a string field, normalised (case, language names) before the
// length limit so that the cut text is final; the cut is trimmed again, or
// a space at the cut would be trimmed by the next reading.
func (d *decoder) text(key string, normalise func(string) string) string {
	v, ok := d.get(key)
	if !ok {
		return ""
	}
	s := normalise(strings.TrimSpace(stringify(v)))
	if n := limit(key); n > 0 && utf8.RuneCountInString(s) > n {
		d.note("%s: %d characters over the limit of %d, cut: %q", key, utf8.RuneCountInString(s), n, s)
		s = strings.TrimSpace(string([]rune(s)[:n]))
	}
	return s
}

func (d *decoder) list(key string) []string {
	v, ok := d.get(key)
	if !ok {
		return []string{}
	}
	var items []string
	switch t := v.(type) {
	case []any:
		for _, item := range t {
			if s := strings.TrimSpace(stringify(item)); s != "" {
				items = append(items, s)
			}
		}
	default:
		if s := strings.TrimSpace(stringify(t)); s != "" {
			d.note("%s: a single value where a list is expected, read as a one-item list", key)
			items = []string{s}
		}
	}
	if n := limit(key); len(items) > n {
		d.note("%s: %d items over the limit of %d, dropped: %q", key, len(items), n, items[n:])
		items = items[:n]
	}
	if items == nil {
		items = []string{}
	}
	return items
}

func (d *decoder) action() contracts.Action {
	s := d.text("action", strings.ToLower)
	if alias, ok := actionAlias(s); ok {
		d.note("action: %q read as %q", s, alias)
		return alias
	}
	return contracts.Action(s)
}

func number(v any) (float64, bool) {
	switch t := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		return f, err == nil // out of float64's range is no score
	case string:
		f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(t), "%"), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, false // ParseFloat accepts "NaN" and "Inf", which no score can be
		}
		if strings.HasSuffix(strings.TrimSpace(t), "%") {
			f /= 100
		}
		return f, true
	case bool:
		return 0, false
	}
	return 0, false
}

func stringify(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return string(t)
	case bool:
		return strconv.FormatBool(t)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// stripFence removes a Markdown code fence some models wrap JSON in.
func stripFence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
}

func languageCode(s string) string {
	switch strings.ToLower(s) {
	case "russian", "rus", "русский", "русском":
		return "ru"
	case "english", "eng":
		return "en"
	}
	return strings.ToLower(s)
}
