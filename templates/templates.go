// Package templates renders the synthetic assistant message of a turn: the
// template of the routed action (normal, clarify, block, guardian_block)
// gives an Analysis section for the model and a Response section for the
// model and the user, with user-facing texts from a ru/en catalogue.
//
// Templates (Go text/template) and catalogue are embedded data files;
// Load replaces either with a file. Every value taken from the plan reaches
// a template already made safe: quoted as a JSON string for the model
// (Quote), flattened to one line for the user (Escape). So neither the
// user's words nor a model's plan can forge a "## Response" header, a
// "**Validity**" field or any other part of the message, whatever the
// template.
package templates

import (
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"unicode"
	"unicode/utf16"

	"gopkg.in/yaml.v3"

	"github.com/sgrgraph/sgrgraph/contracts"
)

//go:embed synthetic.tmpl
var defaultTemplates string

//go:embed catalogue.yaml
var defaultCatalogue []byte

// Catalogue holds the user-facing texts: language → key → text.
type Catalogue map[string]map[string]string

// requiredKeys must exist in every language of a catalogue.
var requiredKeys = []string{"user_intent_prefix", "sgr_normal_response", "sgr_clarify_intro", "sgr_clarify_outro",
	"sgr_spam_response", "sgr_guardian_response", "blocked_message_placeholder", "safe_exit_question",
	"safe_exit_refusal", "policy_refusal", "model_unavailable", "sources_heading", "restricted_scope_notice", "guard_unavailable",
	"answer_disclaimer", "recommended_articles"}

// actions are the actions that have templates.
var actions = []contracts.Action{contracts.ActionNormal, contracts.ActionClarify, contracts.ActionBlock, contracts.ActionGuardianBlock}

// Set is a parsed template file with its catalogue. It is safe for concurrent use.
type Set struct {
	tmpl   *template.Template
	cat    Catalogue
	labels Catalogue // the Analysis section's words (ui.yaml)
	bound  sync.Pool // *binding: clones of tmpl, lent to one render at a time
}

// Rendered is one rendered template, its sections kept apart so the UI
// never parses Markdown back out of a message.
type Rendered struct {
	// Analysis and Response are the sections the model reads; every text
	// from the plan or the moderation in them is a quoted string (Quote).
	Analysis string
	Response string
	// UserResponse is the Response as the user reads it: the same words,
	// the plan's text plain (Escape) rather than quoted.
	UserResponse string
}

// The headers of the synthetic message's sections.
const (
	AnalysisHeader = "## Analysis"
	ResponseHeader = "## Response"
)

// Message is the synthetic assistant message: both sections under their
// headers. Quoting keeps the plan's text from writing either header.
func (r Rendered) Message() string { return r.Sections(true, true) }

// Sections is the synthetic message with the sections asked for (DT-004
// decides which each output channel receives), "" when neither is.
func (r Rendered) Sections(analysis, response bool) string {
	var parts []string
	if analysis {
		parts = append(parts, AnalysisHeader+"\n"+r.Analysis)
	}
	if response {
		parts = append(parts, ResponseHeader+"\n"+r.Response)
	}
	return strings.Join(parts, "\n\n")
}

// Data is what a template is rendered from.
type Data struct {
	Plan       contracts.SGRPlan
	Moderation *contracts.Moderation
	// Product names what the assistant supports.
	Product string
}

// Default is the embedded templates and catalogue.
func Default() (*Set, error) {
	e, err := embeddedSet()
	if err != nil {
		return nil, err
	}
	return &Set{tmpl: e.tmpl, cat: e.cat, labels: e.labels}, nil
}

// embeddedSet parses the embedded templates and catalogue on first use
// only, as embeddedLabels does ui.yaml: every agent starts from the same
// ones, and parsing them was most of the allocations of making a Set.
// Sets share what it holds and never change it: a Set reads its
// catalogue, and renders with clones of its template (bind), each with
// functions of its own.
var embeddedSet = sync.OnceValues(func() (*Set, error) {
	return parse(defaultTemplates, "embedded templates", defaultCatalogue, "embedded catalogue")
})

// Load reads a template file and a catalogue file; an empty path keeps the
// embedded one.
func Load(templatesPath, cataloguePath string) (*Set, error) {
	tmpl, tmplName := defaultTemplates, "embedded templates"
	cat, catName := defaultCatalogue, "embedded catalogue"
	if templatesPath != "" {
		data, err := os.ReadFile(templatesPath)
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		tmpl, tmplName = string(data), templatesPath
	}
	if cataloguePath != "" {
		data, err := os.ReadFile(cataloguePath)
		if err != nil {
			return nil, fmt.Errorf("catalogue: %w", err)
		}
		cat, catName = data, cataloguePath
	}
	return parse(tmpl, tmplName, cat, catName)
}

func parse(tmplText, tmplName string, catData []byte, catName string) (*Set, error) {
	var cat Catalogue
	if err := yaml.Unmarshal(catData, &cat); err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", catName, err)
	}
	if err := cat.validate(); err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", catName, err)
	}
	labels, err := UILabels()
	if err != nil {
		return nil, err
	}
	s := &Set{cat: cat, labels: labels}
	// "text" and "label" are bound per render to the turn's language; these only let Parse succeed.
	t, err := template.New(tmplName).Option("missingkey=error").Funcs(funcs(nil, nil)).Parse(tmplText)
	if err != nil {
		return nil, fmt.Errorf("templates %s: %w", tmplName, err)
	}
	var missing []string
	for _, a := range actions {
		for _, part := range []string{"analysis", "response"} {
			if t.Lookup(string(a)+"."+part) == nil {
				missing = append(missing, string(a)+"."+part)
			}
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("templates %s: missing %s", tmplName, strings.Join(missing, ", "))
	}
	s.tmpl = t
	return s, nil
}

func (c Catalogue) validate() error {
	if len(c) == 0 {
		return errors.New("no languages")
	}
	var errs []error
	langs := make([]string, 0, len(c))
	for l := range c {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, l := range langs {
		for _, k := range requiredKeys {
			if strings.TrimSpace(c[l][k]) == "" {
				errs = append(errs, fmt.Errorf("%s.%s: missing", l, k))
			}
		}
	}
	return errors.Join(errs...)
}

// Languages lists the catalogue's languages.
func (s *Set) Languages() []string {
	out := make([]string, 0, len(s.cat))
	for l := range s.cat {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

func (s *Set) texts(lang string) (map[string]string, error) {
	texts, ok := s.cat[lang]
	if !ok {
		return nil, fmt.Errorf("language %q: not in the catalogue (%s)", lang, strings.Join(s.Languages(), ", "))
	}
	return texts, nil
}

// Text is one catalogue text in lang with {name} placeholders filled from vars.
func (s *Set) Text(lang, key string, vars map[string]string) (string, error) {
	texts, err := s.texts(lang)
	if err != nil {
		return "", err
	}
	text, ok := texts[key]
	if !ok {
		return "", fmt.Errorf("catalogue %s: no text %q", lang, key)
	}
	if p, ok := vars["product"]; ok && ProductIn(p, lang) != p {
		vars = maps.Clone(vars)
		vars["product"] = ProductIn(p, lang)
	}
	return fill(text, vars), nil
}

// fill replaces each {name} placeholder of text with vars[name], as a
// strings.Replacer of the "{name}" strings would, without building one per
// text: no two placeholders can start at one place, since no name holds
// a "}", so the first "}" after a "{" closes the only one that may.
func fill(text string, vars map[string]string) string {
	for k := range vars {
		if strings.Contains(k, "}") { // then one placeholder may start another: the Replacer decides
			pairs := make([]string, 0, 2*len(vars))
			for k, v := range vars {
				pairs = append(pairs, "{"+k+"}", v)
			}
			return strings.NewReplacer(pairs...).Replace(text)
		}
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(text, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(text[open:], '}')
		if end < 0 {
			break
		}
		v, ok := vars[text[open+1:open+end]]
		if !ok {
			b.WriteString(text[:open+1])
			text = text[open+1:]
			continue
		}
		b.WriteString(text[:open])
		b.WriteString(v)
		text = text[open+end+1:]
	}
	if b.Len() == 0 {
		return text
	}
	b.WriteString(text)
	return b.String()
}

// view is what templates see: every string from the plan already made safe
// for where it goes.
type view struct {
	Topic, UserIntent, Category, SpamReason, ClarificationQuestion, Product string
	SpamScore, IntentConfidence                                             string
	Subqueries, ActionPlan, Uncertainties, GuardCategories                  []string
}

// newView renders the plan's strings with safe, which quotes them for the
// model or flattens them for the user.
func newView(d Data, safe func(string) string) view {
	p := d.Plan
	v := view{Topic: safe(p.Topic), UserIntent: safe(p.UserIntent), Category: safe(p.Category),
		SpamReason: safe(p.SpamReason), ClarificationQuestion: safe(p.ClarificationQuestion), Product: Escape(d.Product),
		SpamScore: score(p.SpamScore), IntentConfidence: score(p.IntentConfidence),
		Subqueries: safeAll(p.Subqueries, safe), ActionPlan: safeAll(p.ActionPlan, safe), Uncertainties: safeAll(p.Uncertainties, safe)}
	if d.Moderation != nil && d.Moderation.Level != contracts.LevelSafe {
		for _, c := range d.Moderation.Categories {
			if c != contracts.CategoryNone && strings.TrimSpace(c) != "" {
				v.GuardCategories = append(v.GuardCategories, safe(c))
			}
		}
	}
	return v
}

// Render renders the template of action in lang: the Analysis and the
// Response with the plan's text quoted, and the Response again with it
// plain for the user.
func (s *Set) Render(action contracts.Action, lang string, d Data) (Rendered, error) {
	if _, err := s.texts(lang); err != nil {
		return Rendered{}, err
	}
	model, err := s.bind(lang, newView(d, Quote))
	if err != nil {
		return Rendered{}, err
	}
	defer s.release(model)
	user, err := s.bind(lang, newView(d, Escape))
	if err != nil {
		return Rendered{}, err
	}
	defer s.release(user)
	var out Rendered
	if out.Analysis, err = model.run(action, "analysis"); err != nil {
		return Rendered{}, err
	}
	if out.Response, err = model.run(action, "response"); err != nil {
		return Rendered{}, err
	}
	if out.UserResponse, err = user.run(action, "response"); err != nil {
		return Rendered{}, err
	}
	return out, nil
}

// bound is the template set with catalogue texts filled from one view.
type bound struct {
	b *binding
	v view
}

// binding is a clone of the template set whose "text" fills catalogue
// texts in the language and with the values of the render it is lent to.
// Cloning the set for every render cost more than the render; a clone is
// taken from the Set's pool instead, and given back when the render ends.
type binding struct {
	t    *template.Template
	lang string
	vars map[string]string
}

func (s *Set) bind(lang string, v view) (bound, error) {
	b, _ := s.bound.Get().(*binding)
	if b == nil {
		t, err := s.tmpl.Clone()
		if err != nil {
			return bound{}, err
		}
		b = &binding{t: t}
		t.Funcs(funcs(func(key string) (string, error) { return s.Text(b.lang, key, b.vars) },
			func(key string, pairs ...string) (string, error) { return s.label(b.lang, key, b.vars, pairs) }))
	}
	b.lang, b.vars = lang, map[string]string{"user_intent": v.UserIntent, "product": v.Product}
	return bound{b: b, v: v}, nil
}

// release gives the clone back for another render.
func (s *Set) release(b bound) {
	b.b.vars = nil
	s.bound.Put(b.b)
}

func (b bound) run(action contracts.Action, part string) (string, error) {
	var out strings.Builder
	if err := b.b.t.ExecuteTemplate(&out, string(action)+"."+part, b.v); err != nil {
		return "", fmt.Errorf("template %s.%s: %w", action, part, err)
	}
	return strings.TrimSpace(out.String()), nil
}

// label is a label of the Analysis section in lang, {product} and the
// name/value pairs filled in; a language the labels lack reads English.
func (s *Set) label(lang, key string, vars map[string]string, pairs []string) (string, error) {
	if _, ok := s.labels["en"][key]; !ok {
		return "", fmt.Errorf("label %q: not in the labels", key)
	}
	if len(pairs)%2 != 0 {
		return "", fmt.Errorf("label %q: a name without its value", key)
	}
	all := map[string]string{"product": ProductIn(vars["product"], lang)}
	for i := 0; i < len(pairs); i += 2 {
		all[pairs[i]] = pairs[i+1]
	}
	return s.labels.Label(lang, key, all), nil
}

func funcs(text func(string) (string, error), label func(string, ...string) (string, error)) template.FuncMap {
	if text == nil {
		text = func(string) (string, error) { return "", errors.New("text used outside Render") }
	}
	if label == nil {
		label = func(string, ...string) (string, error) { return "", errors.New("label used outside Render") }
	}
	return template.FuncMap{
		"text":  text,
		"label": label,
		"join":  strings.Join,
		"bullets": func(items []string) string {
			return list(items, func(int) string { return "- " })
		},
		"numbered": func(items []string) string {
			return list(items, func(i int) string { return strconv.Itoa(i+1) + ". " })
		},
	}
}

// none stands for an empty list; unquoted, it cannot be mistaken for an item.
const none = "(none)"

func list(items []string, mark func(int) string) string {
	if len(items) == 0 {
		return "- " + none
	}
	lines := make([]string, len(items))
	for i, it := range items {
		lines[i] = mark(i) + it
	}
	return strings.Join(lines, "\n")
}

func score(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// Escape makes text safe to show the user in place: line breaks become
// spaces, so the text stays on its line and cannot start one with
// "## Response", and a leading "#" is escaped for the same reason.
func Escape(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if strings.HasPrefix(s, "#") {
		s = `\` + s
	}
	return s
}

// markdownSyntax is what could make quoted text read as our headers,
// fields, code fences, links or tags; Quote writes these as \u escapes.
const markdownSyntax = "#*_`~[]<>"

// Quote renders text from the plan as data for the model: a JSON string
// literal on one line that decodes back to the text exactly (invalid UTF-8
// as U+FFFD). Besides what JSON must escape, Markdown syntax and every rune
// that is not visible (controls, line and paragraph separators, zero-width
// and bidirectional marks) are written as \u escapes, so the quoted text
// shows no header, field or fence of ours and cannot hide or reorder itself.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s { // an invalid byte comes as utf8.RuneError, U+FFFD
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case strings.ContainsRune(markdownSyntax, r) || !unicode.IsGraphic(r):
			writeUnicodeEscape(&b, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// writeUnicodeEscape writes r as JSON's \uXXXX, a surrogate pair above U+FFFF.
func writeUnicodeEscape(b *strings.Builder, r rune) {
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		fmt.Fprintf(b, `\u%04x\u%04x`, hi, lo)
		return
	}
	fmt.Fprintf(b, `\u%04x`, r)
}

// safeAll makes every item safe, leaving out blank ones.
func safeAll(items []string, safe func(string) string) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		if strings.TrimSpace(it) != "" {
			out = append(out, safe(it))
		}
	}
	return out
}
