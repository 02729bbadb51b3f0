package openai

import (
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
)

// ownTools gives a call its own copy of the tools it offers. eino-ext sorts
// each schema's required list in place as it builds the request, and a
// caller may offer one ToolInfo to many calls at once (the planning tool is
// made once per language): without a copy, two turns at once write the
// same slice. A copy costs a JSON round trip of a few kilobytes, next to a
// network call.
func ownTools(opts []model.Option) ([]model.Option, error) {
	o := model.GetCommonOptions(nil, opts...)
	if len(o.Tools) == 0 {
		return opts, nil
	}
	own := make([]*schema.ToolInfo, len(o.Tools))
	for i, t := range o.Tools {
		c, err := copyTool(t)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", t.Name, err)
		}
		own[i] = c
	}
	return append(opts, model.WithTools(own)), nil
}

func copyTool(t *schema.ToolInfo) (*schema.ToolInfo, error) {
	c := *t
	if t.ParamsOneOf == nil {
		return &c, nil
	}
	js, err := t.ParamsOneOf.ToJSONSchema()
	if err != nil || js == nil {
		return &c, err
	}
	b, err := json.Marshal(js)
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	c.ParamsOneOf = schema.NewParamsOneOfByJSONSchema(&s)
	return &c, nil
}
