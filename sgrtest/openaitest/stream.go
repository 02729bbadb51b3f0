package openaitest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/cloudwego/eino/schema"
)

var done = []byte("data: [DONE]\n\n")

// Events is reply as a server streams it: one "data: …\n\n" event per
// chunk (the role, text word by word, each tool call as a head with its id
// and name then its arguments in two pieces, the finish reason, the usage
// when u is not nil), and "data: [DONE]\n\n" last.
func Events(reply *schema.Message, u *schema.TokenUsage) [][]byte {
	var wu *usage
	if u != nil {
		wu = &usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	}
	return append(events("m", reply, wu), done)
}

// events is every chunk of reply but [DONE].
func events(model string, reply *schema.Message, u *usage) [][]byte {
	var out [][]byte
	add := func(c chatResponse) {
		c.ID, c.Object, c.Model, c.Created = "chatcmpl-stream", "chat.completion.chunk", model, time.Now().Unix()
		b, _ := json.Marshal(c)
		out = append(out, fmt.Appendf(nil, "data: %s\n\n", b))
	}
	delta := func(d wireMessage) chatResponse { return chatResponse{Choices: []choice{{Delta: &d}}} }
	empty := ""
	add(delta(wireMessage{Role: "assistant", Content: &empty}))
	for _, piece := range words(reply.Content) {
		add(delta(wireMessage{Content: &piece}))
	}
	for i, tc := range reply.ToolCalls {
		head := wireToolCall{Index: &i, ID: tc.ID, Type: "function"}
		head.Function.Name = tc.Function.Name
		add(delta(wireMessage{ToolCalls: []wireToolCall{head}}))
		for _, part := range halves(tc.Function.Arguments) {
			c := wireToolCall{Index: &i}
			c.Function.Arguments = part
			add(delta(wireMessage{ToolCalls: []wireToolCall{c}}))
		}
	}
	finish := finishReason(reply)
	add(chatResponse{Choices: []choice{{Delta: &wireMessage{}, FinishReason: &finish}}})
	if u != nil {
		add(chatResponse{Choices: []choice{}, Usage: u})
	}
	return out
}

// stream sends reply's events and [DONE], or less of them as f asks.
func (s *Server) stream(ctx context.Context, w http.ResponseWriter, req chatRequest, reply *schema.Message, u *usage, f Fault) {
	if req.StreamOptions == nil || !req.StreamOptions.IncludeUsage {
		u = nil
	}
	chunks := events(req.Model, reply, u)
	if f.CloseAfter > 0 || f.CloseAfterBytes > 0 {
		closeEarly(w, chunks, f)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	flusher, _ := w.(http.Flusher)
	for i, c := range append(chunks, done) {
		if f.StallAfter > 0 && i == f.StallAfter {
			<-ctx.Done() // the client gave up
			return
		}
		if f.DropAfter > 0 && i == f.DropAfter && i < len(chunks) {
			if hj, ok := w.(http.Hijacker); ok {
				if conn, _, err := hj.Hijack(); err == nil {
					conn.Close() // the connection dies mid-stream, as a proxy restart would do
				}
			}
			return
		}
		_, _ = w.Write(c)
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// closeEarly answers with no length and closes the connection after the
// part of the stream f allows: to the client the body ends cleanly, so only
// the missing finish_reason tells it the answer is not whole.
func closeEarly(w http.ResponseWriter, chunks [][]byte, f Fault) {
	n := len(chunks)
	if f.CloseAfter > 0 {
		n = min(f.CloseAfter, n)
	}
	var body []byte
	for _, c := range chunks[:n] {
		body = append(body, c...)
	}
	if n == len(chunks) {
		body = append(body, done...)
	}
	if f.CloseAfterBytes > 0 && len(body) > f.CloseAfterBytes {
		body = body[:f.CloseAfterBytes]
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		writeError(w, http.StatusInternalServerError, "the connection cannot be taken over to close it early")
		return
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "take over the connection: "+err.Error())
		return
	}
	defer conn.Close()
	_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
	_, _ = buf.Write(body)
	_ = buf.Flush()
}
