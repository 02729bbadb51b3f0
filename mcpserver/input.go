package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// handler makes a tool's handler from a typed function. It reads the
// arguments itself instead of leaving them to the SDK's schema validation
// (mcp.AddTool): the SDK's messages quote the whole offending value (16000
// characters of an over-long question, back into the client's context)
// and name JSON-pointer paths; ours name the field and its limit, which a
// model can act on. Every error, the function's too, is a tool error
// (IsError), never a protocol error.
func handler[In any](f func(context.Context, In) (*mcp.CallToolResult, error)) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in In
		if err := decode(req.Params.Arguments, &in); err != nil {
			return toolError(err), nil
		}
		res, err := f(context.WithValue(ctx, ownerKey{}, ownerOf(req)), in)
		if err != nil {
			return toolError(err), nil
		}
		return res, nil
	}
}

type ownerKey struct{}

// owner is whom the tool call's conversations belong to (HTTPHandler).
func owner(ctx context.Context) string {
	o, _ := ctx.Value(ownerKey{}).(string)
	return o
}

// decode reads a tool's arguments into v: an object of known fields, each
// of its type.
func decode(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	err := d.Decode(v)
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return fmt.Errorf("%s: a JSON %s where %s is wanted", typeErr.Field, typeErr.Value, jsonKind(typeErr.Type.Kind().String()))
	case errors.As(err, &typeErr):
		return fmt.Errorf("arguments: a JSON %s where an object is wanted", typeErr.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Errorf("arguments: %s is not an argument of this tool", strings.TrimPrefix(err.Error(), "json: unknown field "))
	default:
		return fmt.Errorf("arguments: %w", err)
	}
}

// jsonKind names a Go kind as JSON calls it.
func jsonKind(kind string) string {
	switch {
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"):
		return "an integer"
	case strings.HasPrefix(kind, "float"):
		return "a number"
	case kind == "string":
		return "a string"
	case kind == "bool":
		return "true or false"
	default:
		return "a " + kind
	}
}

func toolError(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}

// schemaOf is T's schema, inferred from its fields (their json and
// jsonschema tags); edit adds the limits a client should know before it
// calls. The handler checks them again.
func schemaOf[T any](edit func(*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %T: %v", *new(T), err)) // a fixed type: fails in every test or never
	}
	if edit != nil {
		edit(s)
	}
	return s
}

// jsonResult is v as a tool's structured content and as its JSON text,
// for clients that read only text.
func jsonResult(v any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode the result: %w", err)
	}
	return &mcp.CallToolResult{StructuredContent: json.RawMessage(b), Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
}

func ptr[T any](v T) *T { return &v }
