package prebuilt

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/schema"
)

// ResponseToolName is the tool whose arguments are the structured output
// (WithStructuredOutput): the last call of the run is forced to call it.
const ResponseToolName = "final_response"

// responseAttempts is how many times the model is asked for the
// structured output: a reply that does not fit is shown its error once.
const responseAttempts = 2

// WithStructuredOutput ends the agent's run with its answer as a value of
// the Go struct T (LangGraph's response_format): after the loop, one more
// model call is forced to call the tool final_response, whose parameters
// are T's JSON schema (eino's utils.GoStruct2ToolInfo: json tags name the
// fields, a field without omitempty is required, `jsonschema:"description=..."`
// describes one). Its arguments are decoded into T (an unknown field or a
// missing required one is refused, and the model is asked once more,
// shown why) and given to set, which keeps the value in the state. The
// call is not added to the conversation, whose last message stays the
// agent's answer.
func WithStructuredOutput[S Messages, T any](set func(s S, v T), opts ...utils.Option) AgentOption[S] {
	return func(c *agentConfig[S]) {
		info, err := utils.GoStruct2ToolInfo[T](ResponseToolName, "Give the final answer in this structure.", opts...)
		c.respond = &responder[S]{info: info, err: err, decode: func(args string) (func(S), error) {
			var v T
			if err := strictDecode(args, &v, info); err != nil {
				return nil, err
			}
			return func(s S) { set(s, v) }, nil
		}}
	}
}

// responder is the structured response node.
type responder[S Messages] struct {
	model  model.BaseChatModel
	prompt string
	info   *schema.ToolInfo
	err    error
	decode func(args string) (func(S), error)
}

func (r *responder[S]) node(ctx context.Context, s S) (S, error) {
	if r.err != nil {
		return s, fmt.Errorf("structured output schema: %w", r.err)
	}
	in := withPrompt(joinPrompt(r.prompt, "Give the final answer by calling "+ResponseToolName+"."), s.GetMessages())
	opts := []model.Option{model.WithTools([]*schema.ToolInfo{r.info}), model.WithToolChoice(schema.ToolChoiceForced, ResponseToolName)}
	var last error
	for range responseAttempts {
		msg, err := r.model.Generate(ctx, in, opts...)
		if err != nil {
			return s, fmt.Errorf("structured output: model: %w", err)
		}
		if msg == nil {
			return s, fmt.Errorf("structured output: the model sent no reply")
		}
		i := slices.IndexFunc(msg.ToolCalls, func(c schema.ToolCall) bool { return c.Function.Name == ResponseToolName })
		if i < 0 {
			last = fmt.Errorf("the reply did not call %s", ResponseToolName)
			in = append(in, &schema.Message{Role: schema.Assistant, Content: msg.Content},
				schema.UserMessage("Call "+ResponseToolName+" with the final answer."))
			continue
		}
		call := msg.ToolCalls[i]
		apply, err := r.decode(call.Function.Arguments)
		if err == nil {
			apply(s)
			return s, nil
		}
		last = err
		asked := &schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{call}}
		in = append(in, asked, schema.ToolMessage("error: "+err.Error()+". Call "+ResponseToolName+" again with arguments that fit its schema.",
			call.ID, schema.WithToolName(ResponseToolName)))
	}
	return s, fmt.Errorf("structured output: no valid %s after %d calls: %w", ResponseToolName, responseAttempts, last)
}

// strictDecode decodes a tool call's arguments into v, refusing fields the
// schema does not have and a missing field it requires (at the top level).
func strictDecode(args string, v any, info *schema.ToolInfo) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(args), &top); err != nil {
		return fmt.Errorf("the arguments are not a JSON object: %w", err)
	}
	if info != nil && info.ParamsOneOf != nil {
		if js, err := info.ParamsOneOf.ToJSONSchema(); err == nil && js != nil {
			var missing []string
			for _, name := range js.Required {
				if _, ok := top[name]; !ok {
					missing = append(missing, name)
				}
			}
			if len(missing) > 0 {
				return fmt.Errorf("required field(s) missing: %s", strings.Join(missing, ", "))
			}
		}
	}
	d := json.NewDecoder(bytes.NewReader([]byte(args)))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("the arguments do not fit: %w", err)
	}
	return nil
}
