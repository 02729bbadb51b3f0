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
	"sync"
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
// it takes. Each call is retried as c.Retry allows (the default policy when
// it is zero), as a turn's calls are, so one transient failure does not
// pass for a fault of the configuration.
func Probe(ctx context.Context, c Config) []Check {
	retry := c.Retry
	if retry == (outbound.Policy{}) {
		retry = outbound.DefaultPolicy()
	}
	if err := retry.Validate(); err != nil {
		return []Check{{Name: "retry", Detail: "retry." + err.Error(), Fix: "fix model.retry"}}
	}
	client := outbound.Client("model", retry, authHeader(c), outbound.Timeouts{Call: 15 * time.Second})
	base := strings.TrimRight(c.BaseURL, "/")
	var checks []Check
	r, err := call(ctx, client, http.MethodGet, base+"/models", nil)
	switch {
	case err != nil:
		return append(checks, Check{Name: "reachable", Detail: err.Error() + r.retried(),
			Fix: "start the server, or set model.base_url (--base-url) to where it listens, ending in /v1"})
	case r.status == http.StatusUnauthorized || r.status == http.StatusForbidden:
		return append(checks, Check{Name: "reachable", Detail: fmt.Sprintf("%d: %s", r.status, clip(r.body)),
			Fix: "set OPENAI_API_KEY or model.api_key to a key this server accepts"})
	case r.status == http.StatusOK:
		checks = append(checks, Check{Name: "reachable", OK: true, Detail: base + " answers, key accepted" + r.retried()})
		checks = append(checks, modelServed(c.Model, r.body))
	default:
		checks = append(checks, Check{Name: "reachable", OK: true,
			Detail: fmt.Sprintf("%s answers (GET /models: %d, not listed)%s", base, r.status, r.retried())})
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
// others from the strongest down and names the one to configure. Only a
// definite answer moves it on: a failure that outlasted the retries says
// nothing of what the server takes, so it ends the check without advice.
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
		r, err := call(ctx, client, http.MethodPost, base+"/chat/completions", b)
		switch {
		case err != nil:
			return Check{Name: "forced tool choice", Detail: fmt.Sprintf("tool_choice %s: %v%s", mode, err, r.retried()),
				Fix: "the server stopped answering; run doctor again"}
		case r.status != http.StatusOK && !refusal(r.status):
			return Check{Name: "forced tool choice",
				Detail: fmt.Sprintf("tool_choice %s: %d %s%s; whether the server takes it is unknown", mode, r.status, clip(r.body), r.retried()),
				Fix:    "the server is failing, not refusing; run doctor again when it answers"}
		case r.status != http.StatusOK:
			tried = append(tried, fmt.Sprintf("%s: %d %s", mode, r.status, clip(r.body)))
			continue
		case !strings.Contains(string(r.body), `"ping"`):
			tried = append(tried, mode+": accepted, but no tool was called")
			continue
		}
		detail := "the server takes tool_choice " + mode + " and calls the tool" + r.retried()
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

// refusal says whether a status answers the request itself: a client error
// other than a rejected key, a timeout or a rate limit, which say nothing
// of what the server would take.
func refusal(status int) bool {
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusRequestTimeout, http.StatusTooManyRequests:
		return false
	}
	return status >= 400 && status < 500
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

// reply is what one call got, with the failed tries before it.
type reply struct {
	status  int
	body    []byte
	retries []string
}

// retried names the failed tries, for the detail of a check.
func (r reply) retried() string {
	if len(r.retries) == 0 {
		return ""
	}
	return " [" + strings.Join(r.retries, "; ") + "]"
}

func call(ctx context.Context, client *http.Client, method, url string, body []byte) (reply, error) {
	var r reply
	var mu sync.Mutex
	ctx = outbound.WithObserver(ctx, func(_ context.Context, a outbound.Attempt) {
		mu.Lock()
		defer mu.Unlock()
		r.retries = append(r.retries, fmt.Sprintf("try %d: %s", a.Try, a.Error))
	})
	var in io.Reader
	if body != nil {
		in = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, in)
	if err != nil {
		return r, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	mu.Lock()
	defer mu.Unlock()
	if err != nil {
		return r, err
	}
	defer resp.Body.Close()
	r.status = resp.StatusCode
	r.body, err = io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return r, err
}

func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
