package spans

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	ucb "github.com/cloudwego/eino/utils/callbacks"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// The OpenTelemetry GenAI semantic conventions' keys. gen_ai.system is
// the older name of gen_ai.provider.name; both are written, since
// backends read one or the other.
const (
	keyOperation     = attribute.Key("gen_ai.operation.name")
	keyProvider      = attribute.Key("gen_ai.provider.name")
	keySystem        = attribute.Key("gen_ai.system")
	keyRequestModel  = attribute.Key("gen_ai.request.model")
	keyResponseModel = attribute.Key("gen_ai.response.model")
	keyMaxTokens     = attribute.Key("gen_ai.request.max_tokens")
	keyTemperature   = attribute.Key("gen_ai.request.temperature")
	keyInputTokens   = attribute.Key("gen_ai.usage.input_tokens")
	keyOutputTokens  = attribute.Key("gen_ai.usage.output_tokens")
	keyFinish        = attribute.Key("gen_ai.response.finish_reasons")
	keyInput         = attribute.Key("gen_ai.input.messages")
	keyOutput        = attribute.Key("gen_ai.output.messages")
	keyToolName      = attribute.Key("gen_ai.tool.name")
	keyToolType      = attribute.Key("gen_ai.tool.type")
	keyToolCallID    = attribute.Key("gen_ai.tool.call.id")
	keyToolArgs      = attribute.Key("gen_ai.tool.call.arguments")
	keyToolResult    = attribute.Key("gen_ai.tool.call.result")
)

// spanKey holds the span a callback started, so that its end finds that
// span and never ends the caller's.
type spanKey struct{}

// Callbacks is an eino callback handler that gives every chat model call
// a client span named "chat MODEL", and every tool call a span named
// "execute_tool NAME", with the GenAI conventions' attributes. Pass it
// to a run with compose.WithCallbacks (graph.WithTracing does).
//
// A streamed reply's span ends when the stream does: a goroutine reads
// the handler's copy, so the caller reads the stream as fast as without
// tracing.
func Callbacks(tracer trace.Tracer, o Options) callbacks.Handler {
	c := &calls{tracer: tracer, o: o}
	return ucb.NewHandlerHelper().
		ChatModel(&ucb.ModelCallbackHandler{OnStart: c.modelStart, OnEnd: c.modelEnd,
			OnEndWithStreamOutput: c.modelStream, OnError: c.fail}).
		Tool(&ucb.ToolCallbackHandler{OnStart: c.toolStart, OnEnd: c.toolEnd,
			OnEndWithStreamOutput: c.toolStream, OnError: c.fail}).
		Handler()
}

type calls struct {
	tracer trace.Tracer
	o      Options
}

func (c *calls) start(ctx context.Context, name string, kind trace.SpanKind, attrs ...attribute.KeyValue) context.Context {
	ctx, span := c.tracer.Start(ctx, name, trace.WithSpanKind(kind), trace.WithAttributes(attrs...))
	return context.WithValue(ctx, spanKey{}, span)
}

// spanOf is the span this handler started for the call ctx belongs to.
func spanOf(ctx context.Context) trace.Span {
	if s, ok := ctx.Value(spanKey{}).(trace.Span); ok {
		return s
	}
	return nil
}

func (c *calls) fail(ctx context.Context, _ *callbacks.RunInfo, err error) context.Context {
	if span := spanOf(ctx); span != nil {
		c.o.Fail(span, err)
		span.End()
	}
	return ctx
}

func (c *calls) modelStart(ctx context.Context, info *callbacks.RunInfo, in *model.CallbackInput) context.Context {
	name := "chat"
	attrs := []attribute.KeyValue{keyOperation.String("chat")}
	if p := strings.ToLower(info.Type); p != "" {
		attrs = append(attrs, keyProvider.String(p), keySystem.String(p))
	}
	if in != nil && in.Config != nil {
		cfg := in.Config
		if cfg.Model != "" {
			name += " " + cfg.Model
			attrs = append(attrs, keyRequestModel.String(cfg.Model))
		}
		if cfg.MaxTokens > 0 {
			attrs = append(attrs, keyMaxTokens.Int(cfg.MaxTokens))
		}
		if cfg.Temperature != 0 {
			attrs = append(attrs, keyTemperature.Float64(float64(cfg.Temperature)))
		}
	}
	if c.o.RecordContent && in != nil {
		attrs = append(attrs, keyInput.String(c.messages(in.Messages)))
	}
	return c.start(ctx, name, trace.SpanKindClient, attrs...)
}

func (c *calls) modelEnd(ctx context.Context, _ *callbacks.RunInfo, out *model.CallbackOutput) context.Context {
	span := spanOf(ctx)
	if span == nil {
		return ctx
	}
	var r reply
	r.add(out)
	c.endModel(span, r)
	return ctx
}

func (c *calls) modelStream(ctx context.Context, _ *callbacks.RunInfo, sr *schema.StreamReader[*model.CallbackOutput]) context.Context {
	span := spanOf(ctx)
	if span == nil {
		sr.Close()
		return ctx
	}
	go func() {
		defer sr.Close()
		var r reply
		for {
			out, err := sr.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				c.o.Fail(span, err)
				break
			}
			r.add(out)
		}
		c.endModel(span, r)
	}()
	return ctx
}

// reply gathers what a model call's output says, whole or in chunks.
type reply struct {
	model  string
	usage  *model.TokenUsage
	finish string
	chunks []*schema.Message
}

func (r *reply) add(out *model.CallbackOutput) {
	if out == nil {
		return
	}
	if out.Config != nil && out.Config.Model != "" {
		r.model = out.Config.Model
	}
	if out.TokenUsage != nil {
		r.usage = out.TokenUsage
	}
	if m := out.Message; m != nil {
		r.chunks = append(r.chunks, m)
		if m.ResponseMeta != nil && m.ResponseMeta.FinishReason != "" {
			r.finish = m.ResponseMeta.FinishReason
		}
		if r.usage == nil && m.ResponseMeta != nil && m.ResponseMeta.Usage != nil {
			u := m.ResponseMeta.Usage
			r.usage = &model.TokenUsage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
		}
	}
}

func (c *calls) endModel(span trace.Span, r reply) {
	var attrs []attribute.KeyValue
	if r.model != "" {
		attrs = append(attrs, keyResponseModel.String(r.model))
	}
	if r.usage != nil {
		attrs = append(attrs, keyInputTokens.Int(r.usage.PromptTokens), keyOutputTokens.Int(r.usage.CompletionTokens))
	}
	if r.finish != "" {
		attrs = append(attrs, keyFinish.StringSlice([]string{r.finish}))
	}
	if c.o.RecordContent && len(r.chunks) > 0 {
		if m, err := schema.ConcatMessages(r.chunks); err == nil {
			attrs = append(attrs, keyOutput.String(c.messages([]*schema.Message{m})))
		}
	}
	span.SetAttributes(attrs...)
	span.End()
}

func (c *calls) toolStart(ctx context.Context, info *callbacks.RunInfo, in *tool.CallbackInput) context.Context {
	attrs := []attribute.KeyValue{keyOperation.String("execute_tool"), keyToolName.String(info.Name), keyToolType.String("function")}
	if id := compose.GetToolCallID(ctx); id != "" {
		attrs = append(attrs, keyToolCallID.String(id))
	}
	if c.o.RecordContent && in != nil {
		attrs = append(attrs, keyToolArgs.String(c.o.Text(in.ArgumentsInJSON)))
	}
	return c.start(ctx, "execute_tool "+info.Name, trace.SpanKindInternal, attrs...)
}

func (c *calls) toolEnd(ctx context.Context, _ *callbacks.RunInfo, out *tool.CallbackOutput) context.Context {
	span := spanOf(ctx)
	if span == nil {
		return ctx
	}
	if c.o.RecordContent && out != nil {
		span.SetAttributes(keyToolResult.String(c.o.Text(out.Response)))
	}
	span.End()
	return ctx
}

func (c *calls) toolStream(ctx context.Context, _ *callbacks.RunInfo, sr *schema.StreamReader[*tool.CallbackOutput]) context.Context {
	span := spanOf(ctx)
	if span == nil {
		sr.Close()
		return ctx
	}
	go func() {
		defer sr.Close()
		var b strings.Builder
		for {
			out, err := sr.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				c.o.Fail(span, err)
				break
			}
			if out != nil {
				b.WriteString(out.Response)
			}
		}
		if c.o.RecordContent {
			span.SetAttributes(keyToolResult.String(c.o.Text(b.String())))
		}
		span.End()
	}()
	return ctx
}
