package tables

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The namespaces of a .dmn file: DMN 1.3's, and ours for what DMN has no
// element for (the examples a table carries), inside extensionElements,
// which DMN tools keep and otherwise ignore.
const (
	DMNNamespace   = "https://www.omg.org/spec/DMN/20191111/MODEL/"
	sgrDMNSpace    = "https://sgrgraph.dev/schema/dmn/1.0"
	dmnDefinitions = "https://sgrgraph.dev/tables"
)

// The XML of a .dmn file, as much of DMN 1.3 as a table uses, in the
// element order the DMN 1.3 XSD prescribes.
type (
	dmnFile struct {
		XMLName   xml.Name    `xml:"https://www.omg.org/spec/DMN/20191111/MODEL/ definitions"`
		ID        string      `xml:"id,attr"`
		Name      string      `xml:"name,attr"`
		Namespace string      `xml:"namespace,attr"`
		Decisions []dmnDecide `xml:"decision"`
		Diagram   *dmnDI      `xml:"https://www.omg.org/spec/DMN/20191111/DMNDI/ DMNDI"`
	}
	// dmnDI draws the decision as a box on the modeler's diagram (DRD).
	dmnDI struct {
		Diagram struct {
			ID    string `xml:"id,attr"`
			Shape struct {
				ID     string `xml:"id,attr"`
				Ref    string `xml:"dmnElementRef,attr"`
				Bounds struct {
					X      int `xml:"x,attr"`
					Y      int `xml:"y,attr"`
					Width  int `xml:"width,attr"`
					Height int `xml:"height,attr"`
				} `xml:"http://www.omg.org/spec/DMN/20180521/DC/ Bounds"`
			} `xml:"https://www.omg.org/spec/DMN/20191111/DMNDI/ DMNShape"`
		} `xml:"https://www.omg.org/spec/DMN/20191111/DMNDI/ DMNDiagram"`
	}
	dmnDecide struct {
		ID          string        `xml:"id,attr"`
		Name        string        `xml:"name,attr"`
		Description string        `xml:"description,omitempty"`
		Extensions  *dmnExtension `xml:"extensionElements"`
		Table       *dmnTable     `xml:"decisionTable"`
	}
	dmnExtension struct {
		Examples []dmnExample `xml:"https://sgrgraph.dev/schema/dmn/1.0 example"`
	}
	// dmnExample is an example's inputs as a FEEL context, {name: value,
	// ...}, and the rule it selects.
	dmnExample struct {
		Rule   int    `xml:"rule,attr"`
		Inputs string `xml:",chardata"`
	}
	dmnTable struct {
		ID        string      `xml:"id,attr"`
		HitPolicy string      `xml:"hitPolicy,attr,omitempty"`
		Inputs    []dmnInput  `xml:"input"`
		Outputs   []dmnOutput `xml:"output"`
		Rules     []dmnRule   `xml:"rule"`
	}
	dmnInput struct {
		ID          string   `xml:"id,attr"`
		Label       string   `xml:"label,attr"`
		Description string   `xml:"description,omitempty"`
		Expression  dmnExpr  `xml:"inputExpression"`
		Values      *dmnText `xml:"inputValues"`
	}
	dmnExpr struct {
		ID      string `xml:"id,attr"`
		TypeRef string `xml:"typeRef,attr"`
		Text    string `xml:"text"`
	}
	dmnOutput struct {
		ID          string   `xml:"id,attr"`
		Name        string   `xml:"name,attr"`
		Label       string   `xml:"label,attr"`
		TypeRef     string   `xml:"typeRef,attr"`
		Description string   `xml:"description,omitempty"`
		Values      *dmnText `xml:"outputValues"`
	}
	dmnRule struct {
		ID          string    `xml:"id,attr"`
		Description string    `xml:"description,omitempty"`
		Inputs      []dmnText `xml:"inputEntry"`
		Outputs     []dmnText `xml:"outputEntry"`
	}
	dmnText struct {
		ID   string `xml:"id,attr"`
		Text string `xml:"text"`
	}
)

// FEEL's names of the column types.
var feelTypes = map[string]string{TypeNumber: "number", TypeString: "string", TypeBool: "boolean"}

// DMN writes the table as a DMN 1.3 file: one decision with its decision
// table, hit policy FIRST, the input expressions and the rules' cells as
// FEEL unary tests, the outputs with their allowed values, each rule's
// annotation as its description, and the examples as extension elements.
// Camunda Modeler and dmn-js open it.
func (t *Table) DMN() ([]byte, error) {
	d := dmnDecide{ID: t.ID, Name: t.Title, Description: t.Description,
		Table: &dmnTable{ID: t.dmnID("table"), HitPolicy: HitPolicyFirst}}
	for j, c := range t.Inputs {
		in := dmnInput{ID: t.dmnID("input%d", j+1), Label: c.Name, Description: c.Description,
			Expression: dmnExpr{ID: t.dmnID("input%d_expression", j+1), TypeRef: feelTypes[c.Type], Text: c.Name}}
		if allowed := c.allowed(); allowed != "" {
			in.Values = &dmnText{ID: t.dmnID("input%d_values", j+1), Text: allowed}
		}
		d.Table.Inputs = append(d.Table.Inputs, in)
	}
	for k, c := range t.Outputs {
		out := dmnOutput{ID: t.dmnID("output%d", k+1), Name: c.Name, Label: c.Name, TypeRef: feelTypes[c.Type], Description: c.Description}
		if c.Type == TypeString {
			out.Values = &dmnText{ID: t.dmnID("output%d_values", k+1), Text: feelList(t.outputValues(k))}
		}
		d.Table.Outputs = append(d.Table.Outputs, out)
	}
	for i, r := range t.Rules {
		rule := dmnRule{ID: t.dmnID("rule%d", i+1), Description: r.Annotation}
		for j, cell := range r.Inputs {
			rule.Inputs = append(rule.Inputs, dmnText{ID: t.dmnID("rule%d_input%d", i+1, j+1), Text: cell})
		}
		for k, cell := range r.Outputs {
			rule.Outputs = append(rule.Outputs, dmnText{ID: t.dmnID("rule%d_output%d", i+1, k+1), Text: feelLiteral(t.Outputs[k].Type, cell)})
		}
		d.Table.Rules = append(d.Table.Rules, rule)
	}
	if len(t.Examples) > 0 {
		d.Extensions = &dmnExtension{}
		for _, e := range t.Examples {
			var entries []string
			for _, c := range t.Inputs {
				if v, ok := e.Inputs[c.Name]; ok {
					entries = append(entries, c.Name+": "+feelLiteral(c.Type, fmt.Sprint(v)))
				}
			}
			d.Extensions.Examples = append(d.Extensions.Examples, dmnExample{Rule: e.Rule, Inputs: "{" + strings.Join(entries, ", ") + "}"})
		}
	}
	file := dmnFile{ID: "definitions_" + t.Name, Name: t.Name, Namespace: dmnDefinitions, Decisions: []dmnDecide{d}, Diagram: &dmnDI{}}
	file.Diagram.Diagram.ID = t.dmnID("diagram")
	shape := &file.Diagram.Diagram.Shape
	shape.ID, shape.Ref = t.dmnID("shape"), t.ID
	shape.Bounds.X, shape.Bounds.Y, shape.Bounds.Width, shape.Bounds.Height = 160, 100, 180, 80
	body, err := xml.MarshalIndent(file, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("%s: dmn: %w", t.ID, err)
	}
	return append(append([]byte(xml.Header), plainQuotes(body)...), '\n'), nil
}

// plainQuotes writes the quotes of element text as themselves: encoding/xml
// escapes them everywhere, and a FEEL cell such as "Safe","Unsafe" reads
// badly as &#34;Safe&#34;,&#34;Unsafe&#34;. Inside a tag (attribute
// values) they stay escaped.
func plainQuotes(b []byte) []byte {
	var out bytes.Buffer
	inTag := false
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '<':
			inTag = true
		case b[i] == '>':
			inTag = false
		case !inTag && bytes.HasPrefix(b[i:], []byte("&#34;")):
			out.WriteByte('"')
			i += len("&#34;") - 1
			continue
		case !inTag && bytes.HasPrefix(b[i:], []byte("&#39;")):
			out.WriteByte('\'')
			i += len("&#39;") - 1
			continue
		}
		out.WriteByte(b[i])
	}
	return out.Bytes()
}

// dmnID is the id of an element of the table's file, unique in it.
func (t *Table) dmnID(format string, args ...any) string {
	return t.ID + "_" + fmt.Sprintf(format, args...)
}

// allowed is an input's domain as a FEEL unary test: its values, or its
// range; "" when it takes any value of its type.
func (c Column) allowed() string {
	if len(c.Values) > 0 {
		return feelList(c.Values)
	}
	return c.Range
}

// outputValues are the values output column k may take: its Values, or
// those its rules give, in rule order.
func (t *Table) outputValues(k int) []string {
	if len(t.Outputs[k].Values) > 0 {
		return t.Outputs[k].Values
	}
	var vs []string
	for _, r := range t.Rules {
		if !slices.Contains(vs, r.Outputs[k]) {
			vs = append(vs, r.Outputs[k])
		}
	}
	return vs
}

func feelList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = feelString(v)
	}
	return strings.Join(quoted, ",")
}

// feelString is a FEEL string literal: in double quotes, with \ and "
// escaped; other characters, Cyrillic ones included, stand as they are.
func feelString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// feelLiteral writes a value of a column type as FEEL.
func feelLiteral(typ, v string) string {
	if typ == TypeString {
		return feelString(v)
	}
	return v
}

// ParseDMN reads a table from a DMN 1.3 file that DMN writes, or that a
// DMN modeler saved after editing one: one decision with a decision table
// of hit policy FIRST. Errors name the decision, the rule and the column.
// The table still has to pass New.
func ParseDMN(data []byte) (Table, error) {
	var f dmnFile
	if err := xml.NewDecoder(bytes.NewReader(data)).Decode(&f); err != nil {
		return Table{}, fmt.Errorf("not DMN 1.3 XML (a definitions element in %s): %w", DMNNamespace, err)
	}
	if len(f.Decisions) != 1 || f.Decisions[0].Table == nil {
		return Table{}, fmt.Errorf("definitions %q: %d decisions; a table's file holds one decision with a decisionTable", f.Name, len(f.Decisions))
	}
	d := f.Decisions[0]
	dt := d.Table
	t := Table{ID: d.ID, Name: f.Name, Title: d.Name, Description: strings.TrimSpace(d.Description), HitPolicy: dt.HitPolicy}
	if t.HitPolicy == "" {
		return Table{}, fmt.Errorf("%s: hit policy UNIQUE (DMN's default when none is set) is not supported: set FIRST", t.ID)
	}
	for _, in := range dt.Inputs {
		c := Column{Name: strings.TrimSpace(in.Expression.Text), Description: strings.TrimSpace(in.Description)}
		typ, err := columnType(in.Expression.TypeRef)
		if err != nil {
			return Table{}, fmt.Errorf("%s: input %s: %w", t.ID, c.Name, err)
		}
		c.Type = typ
		if in.Values != nil {
			if err := c.setAllowed(strings.TrimSpace(in.Values.Text)); err != nil {
				return Table{}, fmt.Errorf("%s: input %s: inputValues: %w", t.ID, c.Name, err)
			}
		}
		t.Inputs = append(t.Inputs, c)
	}
	for _, out := range dt.Outputs {
		c := Column{Name: out.Name, Description: strings.TrimSpace(out.Description)}
		typ, err := columnType(out.TypeRef)
		if err != nil {
			return Table{}, fmt.Errorf("%s: output %s: %w", t.ID, c.Name, err)
		}
		c.Type = typ
		if out.Values != nil && typ == TypeString {
			if c.Values, err = unquoteList(out.Values.Text); err != nil {
				return Table{}, fmt.Errorf("%s: output %s: outputValues: %w", t.ID, c.Name, err)
			}
		}
		t.Outputs = append(t.Outputs, c)
	}
	for i, r := range dt.Rules {
		rule := Rule{Annotation: strings.TrimSpace(r.Description)}
		for _, e := range r.Inputs {
			rule.Inputs = append(rule.Inputs, strings.TrimSpace(e.Text))
		}
		if len(r.Outputs) != len(t.Outputs) {
			return Table{}, fmt.Errorf("%s rule %d: %d output entries, the table has %d outputs", t.ID, i+1, len(r.Outputs), len(t.Outputs))
		}
		for k, e := range r.Outputs {
			v, err := literal(t.Outputs[k].Type, strings.TrimSpace(e.Text))
			if err != nil {
				return Table{}, fmt.Errorf("%s rule %d column %s: %w", t.ID, i+1, t.Outputs[k].Name, err)
			}
			rule.Outputs = append(rule.Outputs, v)
		}
		t.Rules = append(t.Rules, rule)
	}
	if d.Extensions != nil {
		for n, e := range d.Extensions.Examples {
			inputs, err := exampleInputs(t.Inputs, e.Inputs)
			if err != nil {
				return Table{}, fmt.Errorf("%s example %d: %w", t.ID, n+1, err)
			}
			t.Examples = append(t.Examples, Example{Rule: e.Rule, Inputs: inputs})
		}
	}
	return t, nil
}

func columnType(feel string) (string, error) {
	for ours, theirs := range feelTypes {
		if feel == theirs {
			return ours, nil
		}
	}
	return "", fmt.Errorf("typeRef %q is not number, string or boolean", feel)
}

// setAllowed reads an input's inputValues back into Values or Range.
func (c *Column) setAllowed(text string) error {
	if text == "" {
		return nil
	}
	if c.Type == TypeString {
		vs, err := unquoteList(text)
		c.Values = vs
		return err
	}
	c.Range = text
	return nil
}

// unquoteList reads a FEEL list of string literals: "a","b".
func unquoteList(text string) ([]string, error) {
	var out []string
	for _, part := range splitList(text) {
		v, err := unquoteFEEL(part)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// unquoteFEEL reads a FEEL string literal as the unary tests read theirs
// (see test.add): feelString writes only escapes that strconv reads back.
func unquoteFEEL(s string) (string, error) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", fmt.Errorf("%s is not a string in double quotes", s)
	}
	return strconv.Unquote(s)
}

// literal reads an output cell of a column type.
func literal(typ, text string) (string, error) {
	switch typ {
	case TypeString:
		return unquoteFEEL(text)
	case TypeBool:
		if text != "true" && text != "false" {
			return "", fmt.Errorf("%s is not true or false", text)
		}
	case TypeNumber:
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			return "", fmt.Errorf("%s is not a number", text)
		}
	}
	return text, nil
}

// exampleInputs reads an example's FEEL context, each value as its
// column's type.
func exampleInputs(cols []Column, context string) (map[string]any, error) {
	body, opened := strings.CutPrefix(strings.TrimSpace(context), "{")
	body, closed := strings.CutSuffix(body, "}")
	if !opened || !closed {
		return nil, fmt.Errorf("%q is not a FEEL context {name: value, ...}", context)
	}
	inputs := map[string]any{}
	for _, entry := range splitList(body) {
		name, text, ok := strings.Cut(entry, ":")
		name, text = strings.TrimSpace(name), strings.TrimSpace(text)
		i := slices.IndexFunc(cols, func(c Column) bool { return c.Name == name })
		switch {
		case !ok:
			return nil, fmt.Errorf("%q is not name: value", entry)
		case i < 0:
			return nil, fmt.Errorf("input %s: the table has no such input", name)
		}
		v, err := literal(cols[i].Type, text)
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", name, err)
		}
		switch cols[i].Type {
		case TypeNumber:
			inputs[name], _ = strconv.ParseFloat(v, 64) // literal checked it
		case TypeBool:
			inputs[name] = v == "true"
		default:
			inputs[name] = v
		}
	}
	return inputs, nil
}
