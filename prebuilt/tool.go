package prebuilt

import (
	"context"
	"fmt"
	"reflect"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
)

// NewTool makes a tool of a Go function whose input is a struct: the
// tool's JSON schema is the struct's (json tags name the fields,
// `jsonschema:"description=..."` describes them, a field without
// omitempty is required), the model's arguments are decoded into it, and
// the output is the model's to read: a string as it is, any other value as
// JSON. It is eino's utils.InferTool.
//
// The function runs with the tool step's context: graph.ContextOf reads
// the run's value (graph.WithContext) in it, the caller or a handle.
func NewTool[In, Out any](name, desc string, fn func(ctx context.Context, in In) (Out, error), opts ...utils.Option) (tool.InvokableTool, error) {
	t, err := utils.InferTool(name, desc, fn, opts...)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", name, err)
	}
	return t, nil
}

// NewStateTool is NewTool for a function that also reads the graph's
// state (LangGraph's InjectedState): a ToolNode over state S gives it a
// copy of the state as it was when the model called the tool, so that
// what the tool does to it is lost. The state is no part of the tool's
// schema: the model never sees it or fills it in.
//
// The copy is made by the state's Clone method when it has one, else
// through JSON (what JSON drops, such as unexported fields, is not in
// it). Outside a ToolNode over S the tool fails.
func NewStateTool[S, In, Out any](name, desc string, fn func(ctx context.Context, s S, in In) (Out, error), opts ...utils.Option) (tool.InvokableTool, error) {
	t, err := utils.InferTool(name, desc, func(ctx context.Context, in In) (Out, error) {
		s, ok := ctx.Value(stateKey{}).(S)
		if !ok {
			var zero Out
			return zero, fmt.Errorf("tool %s reads the state (%s): run it in a prebuilt.ToolNode over that state", name, reflect.TypeFor[S]())
		}
		return fn(ctx, s, in)
	}, opts...)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", name, err)
	}
	return stateTool{InvokableTool: t, state: reflect.TypeFor[S]()}, nil
}

// stateKey carries a tool's copy of the state in its context.
type stateKey struct{}

// stateTool is a tool that reads the state; the ToolNode gives it a copy.
type stateTool struct {
	tool.InvokableTool
	state reflect.Type
}

// reader is what a ToolNode asks of a tool that reads the state.
type reader interface{ stateType() reflect.Type }

func (t stateTool) stateType() reflect.Type { return t.state }
