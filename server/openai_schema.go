package server

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// The JSON answer is the content a request with response_format
// json_object or json_schema gets: one object of these fields, taken from
// the turn's structured result.
//
//	answer   string   the answer's text, without its list of sources
//	sources  array    the articles it cites, each a string as the list
//	                  shows it ("[1] Title", or "[1] Title — URL")
//	action   string   the turn's route: normal, clarify, block, guardian_block
//	verdict  string   the Guardian's verdict: PASS, RETRY, FAIL, or none
//
// json_object gets all four; json_schema the ones its schema names
// (schemaFields).
var answerFields = []struct{ name, typ string }{
	{"answer", "string"}, {"sources", "array"}, {"action", "string"}, {"verdict", "string"},
}

func fieldNames() []string {
	names := make([]string, len(answerFields))
	for i, f := range answerFields {
		names[i] = f.name
	}
	return names
}

// jsonAnswer is the JSON answer of res, with the given fields only.
func jsonAnswer(res contracts.StructuredResult, fields []string) string {
	answer, sources := answerAndSources(res)
	verdict := "none"
	if res.Verdict != nil && res.Verdict.Verdict != "" {
		verdict = string(res.Verdict.Verdict)
	}
	all := map[string]any{"answer": answer, "sources": sources, "action": res.Action, "verdict": verdict}
	out := make(map[string]any, len(fields))
	for _, f := range fields {
		out[f] = all[f]
	}
	b, _ := json.Marshal(out) // strings only: it cannot fail
	return string(b)
}

// answerAndSources splits the answer from the list of sources the turn
// appended to it (the sources UI message: a heading, then one line an
// article).
func answerAndSources(res contracts.StructuredResult) (string, []string) {
	sources := []string{}
	for _, m := range slices.Backward(res.UI) {
		if m.Type != contracts.UISources {
			continue
		}
		if _, list, ok := strings.Cut(m.Content, "\n"); ok {
			sources = strings.Split(list, "\n")
		}
		return strings.TrimSuffix(res.Answer, "\n\n"+m.Content), sources
	}
	return res.Answer, sources
}

const schemaParam = "response_format.json_schema.schema"

// The keywords a schema may use. They describe the answer's object and
// nothing more: any other keyword (enum, pattern, minLength, $ref, ...)
// constrains values the turn does not choose, so a schema with one is
// refused rather than answered with JSON that might not fit it.
var (
	objectKeywords = []string{"$schema", "type", "title", "description", "properties", "required", "additionalProperties"}
	fieldKeywords  = []string{"type", "title", "description", "items"} // items: sources only
	itemKeywords   = []string{"type", "title", "description"}
)

// schemaFields checks that the JSON answer fits a json_schema's schema,
// and says which fields to return: those its properties name, in
// answerFields' order, or all when it names none. So the returned object
// never holds a property the schema leaves out, and every field it holds
// has the type the schema gives it.
func schemaFields(raw json.RawMessage) ([]string, *apiError) {
	if len(raw) == 0 || string(raw) == "null" {
		return fieldNames(), nil
	}
	obj, e := schemaObject(raw, schemaParam, objectKeywords)
	if e == nil {
		e = schemaType(obj, schemaParam, "object", "the answer is an object")
	}
	if e != nil {
		return nil, e
	}
	fields := fieldNames()
	extra, hasExtra := obj["additionalProperties"]
	if hasExtra && string(extra) != "true" && string(extra) != "false" {
		return nil, invalid(schemaParam+".additionalProperties", "invalid_value", "%s.additionalProperties: must be true or false", schemaParam)
	}
	if props, ok := obj["properties"]; ok {
		fields, e = schemaProperties(props)
	} else if string(extra) == "false" {
		e = invalid(schemaParam+".additionalProperties", "invalid_value", "%s.additionalProperties: false with no properties allows only {}; name the fields wanted (%s) in properties", schemaParam, strings.Join(fieldNames(), ", "))
	}
	if e == nil {
		e = schemaRequired(obj["required"], fields)
	}
	return fields, e
}

// schemaProperties checks each property a schema names against the field
// of that name, and returns the fields named.
func schemaProperties(raw json.RawMessage) ([]string, *apiError) {
	param := schemaParam + ".properties"
	var props map[string]json.RawMessage
	if json.Unmarshal(raw, &props) != nil {
		return nil, invalid(param, "invalid_type", "%s: must be an object", param)
	}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		if e := schemaField(name, props[name], param+"."+name); e != nil {
			return nil, e
		}
	}
	var fields []string
	for _, f := range answerFields {
		if _, ok := props[f.name]; ok {
			fields = append(fields, f.name)
		}
	}
	return fields, nil
}

func schemaField(name string, raw json.RawMessage, param string) *apiError {
	i := slices.IndexFunc(answerFields, func(f struct{ name, typ string }) bool { return f.name == name })
	if i < 0 {
		return invalid(param, "invalid_value", "%s: the JSON answer has no field %q; it has %s", param, name, strings.Join(fieldNames(), ", "))
	}
	obj, e := schemaObject(raw, param, fieldKeywords)
	if e == nil {
		e = schemaType(obj, param, answerFields[i].typ, name+" is "+article(answerFields[i].typ))
	}
	items, ok := obj["items"]
	switch {
	case e != nil || !ok:
		return e
	case name != "sources":
		return invalid(param+".items", "unsupported_value", "%s.items: only sources is an array", param)
	}
	obj, e = schemaObject(items, param+".items", itemKeywords)
	if e == nil {
		e = schemaType(obj, param+".items", "string", "each source is a string")
	}
	return e
}

// schemaRequired checks that every field a schema requires is returned.
func schemaRequired(raw json.RawMessage, fields []string) *apiError {
	param := schemaParam + ".required"
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var required []string
	if json.Unmarshal(raw, &required) != nil {
		return invalid(param, "invalid_type", "%s: must be an array of strings", param)
	}
	for _, name := range required {
		if !slices.Contains(fields, name) {
			return invalid(param, "invalid_value", "%s: %q is not among the fields returned (%s)", param, name, strings.Join(fields, ", "))
		}
	}
	return nil
}

// schemaObject reads a schema object that may use only the keywords
// allowed.
func schemaObject(raw json.RawMessage, param string, allowed []string) (map[string]json.RawMessage, *apiError) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		return nil, invalid(param, "invalid_type", "%s: must be a JSON Schema object", param)
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if !slices.Contains(allowed, k) {
			return nil, invalid(param+"."+k, "unsupported_value", "%s.%s: not supported; the JSON answer has fixed fields (%s), so a schema may say which it wants, their types and which are required, and only with %s", param, k, strings.Join(fieldNames(), ", "), strings.Join(allowed, ", "))
		}
	}
	return obj, nil
}

// schemaType checks that a schema's type, if it gives one (a name or an
// array of names), allows want.
func schemaType(obj map[string]json.RawMessage, param, want, why string) *apiError {
	raw, ok := obj["type"]
	if !ok {
		return nil
	}
	var types []string
	var one string
	if json.Unmarshal(raw, &one) == nil {
		types = []string{one}
	} else if json.Unmarshal(raw, &types) != nil {
		return invalid(param+".type", "invalid_type", "%s.type: must be a type name or an array of them", param)
	}
	if !slices.Contains(types, want) {
		return invalid(param+".type", "invalid_value", "%s.type: must allow %q: %s", param, want, why)
	}
	return nil
}

func article(typ string) string {
	if typ == "array" {
		return "an array"
	}
	return "a " + typ
}
