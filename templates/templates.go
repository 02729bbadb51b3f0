// Package templates renders the synthetic assistant message of a turn: the
// template of the routed action (normal, clarify, block, guardian_block)
// gives an Analysis section for the model and a Response section for the
// model and the user, with user-facing texts from a ru/en catalogue.
//
// Templates (Go text/template) and catalogue are embedded data files;
// Load replaces either with a file. Every value taken from the plan is
// escaped first, so text the user wrote cannot forge a "## Response"
// header or any other section.
package templates

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/template"

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
	"safe_exit_refusal", "policy_refusal", "model_unavailable", "sources_heading"}

// actions are the actions that have templates.
var actions = []contracts.Action{contracts.ActionNormal, contracts.ActionClarify, contracts.ActionBlock, contracts.ActionGuardianBlock}

// Set is a parsed template file with its catalogue. It is safe for concurrent use.
type Set struct {
	tmpl *template.Template
	cat  Catalogue
}

// Rendered is one rendered template, its two sections kept apart so the UI
// never parses Markdown back out of a message.
type Rendered struct {
	Analysis string
	Response string
}

// Message is the synthetic assistant message: both sections under their headers.
func (r Rendered) Message() string {
	return "## Analysis\n" + r.Analysis + "\n\n## Response\n" + r.Response
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
	return parse(defaultTemplates, "embedded templates", defaultCatalogue, "embedded catalogue")
}

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
	s := &Set{cat: cat}
	// "text" is bound per render to the turn's language; this one only lets Parse succeed.
	t, err := template.New(tmplName).Option("missingkey=error").Funcs(funcs(nil)).Parse(tmplText)
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
	pairs := make([]string, 0, 2*len(vars))
	for k, v := range vars {
		pairs = append(pairs, "{"+k+"}", v)
	}
	return strings.NewReplacer(pairs...).Replace(text), nil
}

// view is what templates see: every string from the plan already escaped.
type view struct {
	Topic, UserIntent, Category, SpamReason, ClarificationQuestion, Product string
	SpamScore, IntentConfidence                                             string
	Subqueries, ActionPlan, Uncertainties, GuardCategories                  []string
}

// Render renders the template of action in lang.
func (s *Set) Render(action contracts.Action, lang string, d Data) (Rendered, error) {
	if _, err := s.texts(lang); err != nil {
		return Rendered{}, err
	}
	p := d.Plan
	v := view{Topic: Escape(p.Topic), UserIntent: Escape(p.UserIntent), Category: Escape(p.Category),
		SpamReason: Escape(p.SpamReason), ClarificationQuestion: Escape(p.ClarificationQuestion), Product: Escape(d.Product),
		SpamScore: score(p.SpamScore), IntentConfidence: score(p.IntentConfidence),
		Subqueries: escapeAll(p.Subqueries), ActionPlan: escapeAll(p.ActionPlan), Uncertainties: escapeAll(p.Uncertainties)}
	if d.Moderation != nil && d.Moderation.Level != contracts.LevelSafe {
		for _, c := range d.Moderation.Categories {
			if c != contracts.CategoryNone {
				v.GuardCategories = append(v.GuardCategories, Escape(c))
			}
		}
	}
	vars := map[string]string{"user_intent": v.UserIntent, "product": v.Product}
	t, err := s.tmpl.Clone()
	if err != nil {
		return Rendered{}, err
	}
	t.Funcs(funcs(func(key string) (string, error) { return s.Text(lang, key, vars) }))
	var out Rendered
	for part, dst := range map[string]*string{"analysis": &out.Analysis, "response": &out.Response} {
		var b strings.Builder
		if err := t.ExecuteTemplate(&b, string(action)+"."+part, v); err != nil {
			return Rendered{}, fmt.Errorf("template %s.%s: %w", action, part, err)
		}
		*dst = strings.TrimSpace(b.String())
	}
	return out, nil
}

func funcs(text func(string) (string, error)) template.FuncMap {
	if text == nil {
		text = func(string) (string, error) { return "", errors.New("text used outside Render") }
	}
	return template.FuncMap{
		"text": text,
		"join": strings.Join,
		"bullets": func(items []string) string {
			return list(items, func(int) string { return "- " })
		},
		"numbered": func(items []string) string {
			return list(items, func(i int) string { return strconv.Itoa(i+1) + ". " })
		},
	}
}

func list(items []string, mark func(int) string) string {
	if len(items) == 0 {
		return "- (none)"
	}
	lines := make([]string, len(items))
	for i, it := range items {
		lines[i] = mark(i) + it
	}
	return strings.Join(lines, "\n")
}

func score(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// Escape makes text safe to place in a template: line breaks become spaces,
// so the text stays on its line and cannot start one with "## Response",
// and a leading "#" is escaped for the same reason.
func Escape(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if strings.HasPrefix(s, "#") {
		s = `\` + s
	}
	return s
}

func escapeAll(items []string) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		if e := Escape(it); e != "" {
			out = append(out, e)
		}
	}
	return out
}
