package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/sgrgraph/sgrgraph/outbound"
)

// Check is one finding of Probe: what was checked, whether it holds, and
// what to change when it does not.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// Probe checks an endpoint the way a turn will use it: the server answers,
// the key is accepted, the model is served, and which forced tool choice
// it takes. Each call is made once, without retries, so a fault shows.
func Probe(ctx context.Context, c Config) []Check {
	client := outbound.Client("model", outbound.Policy{Attempts: 1}, authHeader(c), 15*time.Second)
	base := strings.TrimRight(c.BaseURL, "/")
	var checks []Check
	status, body, err := call(ctx, client, http.MethodGet, base+"/models", nil)
	switch {
	case err != nil:
		return append(checks, Check{Name: "reachable", Detail: err.Error(),
			Fix: "start the server, or set model.base_url (--base-url) to where it listens, ending in /v1"})
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return append(checks, Check{Name: "reachable", Detail: fmt.Sprintf("%d: %s", status, clip(body)),
			Fix: "set OPENAI_API_KEY or model.api_key to a key this server accepts"})
	case status == http.StatusOK:
		checks = append(checks, Check{Name: "reachable", OK: true, Detail: base + " answers, key accepted"})
		checks = append(checks, modelServed(c.Model, body))
	default:
		checks = append(checks, Check{Name: "reachable", OK: true, Detail: fmt.Sprintf("%s answers (GET /models: %d, not listed)", base, status)})
	}
	return append(checks, forcedChoice(ctx, client, base, c))
}

func modelServed(name string, body []byte) Check {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &list) != nil {
		return Check{Name: "model", OK: true, Detail: "the model list could not be read; the call below tells"}
	}
	var ids []string
	for _, m := range list.Data {
		ids = append(ids, m.ID)
	}
	if slices.Contains(ids, name) {
		return Check{Name: "model", OK: true, Detail: fmt.Sprintf("%q is served", name)}
	}
	return Check{Name: "model", Detail: fmt.Sprintf("%q is not among the served models: %s", name, strings.Join(ids, ", ")),
		Fix: "set model.name (--model) to one of them"}
}

// forcedChoice asks for a tool call the way the configuration will; when
// the server refuses that (or takes it but calls no tool), it tries the
// others from the strongest down and names the one to configure.
func forcedChoice(ctx context.Context, client *http.Client, base string, c Config) Check {
	configured := c.ForcedToolChoice
	if configured == "" {
		configured = ForcedNamed
	}
	choices := map[string]any{
		ForcedNamed:    map[string]any{"type": "function", "function": map[string]string{"name": "ping"}},
		ForcedRequired: "required",
		ForcedNone:     "auto",
	}
	var tried []string
	for _, mode := range []string{configured, ForcedNamed, ForcedRequired, ForcedNone} {
		if slices.ContainsFunc(tried, func(t string) bool { return strings.HasPrefix(t, mode+":") }) {
			continue
		}
		req := map[string]any{"model": c.Model, "max_tokens": 64, "tool_choice": choices[mode],
			"messages": []map[string]string{{"role": "user", "content": "Call the ping tool now."}},
			"tools": []map[string]any{{"type": "function", "function": map[string]any{"name": "ping", "description": "Answers ping.",
				"parameters": map[string]any{"type": "object", "properties": map[string]any{}}}}}}
		b, _ := json.Marshal(req)
		status, body, err := call(ctx, client, http.MethodPost, base+"/chat/completions", b)
		switch {
		case err != nil:
			return Check{Name: "forced tool choice", Detail: err.Error(), Fix: "the server stopped answering; run doctor again"}
		case status != http.StatusOK:
			tried = append(tried, fmt.Sprintf("%s: %d %s", mode, status, clip(body)))
			continue
		case !strings.Contains(string(body), `"ping"`):
			tried = append(tried, mode+": accepted, but no tool was called")
			continue
		}
		detail := "the server takes tool_choice " + mode + " and calls the tool"
		if len(tried) > 0 {
			detail += " (" + strings.Join(tried, "; ") + ")"
		}
		if mode == configured {
			return Check{Name: "forced tool choice", OK: true, Detail: detail}
		}
		return Check{Name: "forced tool choice", Detail: detail, Fix: "set model.forced_tool_choice: " + mode}
	}
	return Check{Name: "forced tool choice", Detail: "no tool choice gave a tool call: " + strings.Join(tried, "; "),
		Fix: "serve a model with tool calling (vLLM: --enable-auto-tool-choice --tool-call-parser ...)"}
}

func authHeader(c Config) http.Header {
	h := http.Header{}
	if c.APIKey != "" {
		h.Set("Authorization", "Bearer "+c.APIKey)
	}
	for k, v := range c.Headers {
		h.Set(k, v)
	}
	return h
}

func call(ctx context.Context, client *http.Client, method, url string, body []byte) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, b, err
}

func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
