package safety

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// The remote guard providers.
const (
	// ProviderMosec is a mosec guard service (POST {"content", "moderation_type"}).
	ProviderMosec = "mosec"
	// ProviderOpenAI is a Qwen3Guard model behind an OpenAI-compatible server.
	ProviderOpenAI = "openai"
)

// maxGuardBody bounds what is read of a guard's answer.
const maxGuardBody = 1 << 20

// Mosec classifies with a mosec guard service. Client carries the timeout
// and the retry policy of the call.
type Mosec struct {
	Endpoint string
	Client   *http.Client
}

// Classify posts the message as a prompt to moderate. An answer that cannot
// be read is level Unknown with the raw text kept; a service that cannot be
// reached is an error.
func (m Mosec) Classify(ctx context.Context, text string) (contracts.Moderation, error) {
	body, _ := json.Marshal(map[string]string{"content": text, "moderation_type": "prompt"})
	raw, err := post(ctx, m.Client, m.Endpoint, nil, body)
	if err != nil {
		return contracts.Moderation{}, fmt.Errorf("mosec guard: %w", err)
	}
	return parseMosec(raw), nil
}

// parseMosec reads a mosec guard's JSON answer. An answer that is not JSON
// or names no known level is level Unknown with a reason; the answer is
// always kept.
func parseMosec(raw []byte) contracts.Moderation {
	var res struct {
		SafetyLevel string   `json:"safety_level"`
		Categories  []string `json:"categories"`
		Refusal     *string  `json:"refusal"`
		Model       string   `json:"model"`
		RawOutput   string   `json:"raw_output"`
	}
	mod := contracts.Moderation{Level: contracts.LevelUnknown, Categories: []string{}, Provider: ProviderMosec, Raw: string(raw)}
	if err := json.Unmarshal(raw, &res); err != nil {
		mod.Reasons = []string{"unreadable answer: " + err.Error()}
		return mod
	}
	mod.Level = level(res.SafetyLevel)
	mod.Categories = namedCategories(strings.Join(res.Categories, "\n"))
	if res.Refusal != nil {
		mod.Refusal = refusal(*res.Refusal)
	}
	if res.RawOutput != "" {
		mod.Raw = res.RawOutput
	}
	if mod.Level == contracts.LevelUnknown {
		mod.Reasons = []string{fmt.Sprintf("safety_level %q is not Safe, Controversial or Unsafe", res.SafetyLevel)}
	}
	return mod
}

// OpenAIGuard classifies with a Qwen3Guard model behind an
// OpenAI-compatible chat-completions endpoint, reading its text answer
// ("Safety: Unsafe\nCategories: Violent\nRefusal: Yes").
type OpenAIGuard struct {
	BaseURL string // ends in /v1
	Model   string
	APIKey  string
	Client  *http.Client
}

// Classify asks the guard model about the message as a user turn.
func (g OpenAIGuard) Classify(ctx context.Context, text string) (contracts.Moderation, error) {
	body, _ := json.Marshal(map[string]any{"model": g.Model, "max_tokens": 128, "temperature": 0,
		"messages": []map[string]string{{"role": "user", "content": text}}})
	header := http.Header{}
	if g.APIKey != "" {
		header.Set("Authorization", "Bearer "+g.APIKey)
	}
	raw, err := post(ctx, g.Client, strings.TrimRight(g.BaseURL, "/")+"/chat/completions", header, body)
	if err != nil {
		return contracts.Moderation{}, fmt.Errorf("openai guard: %w", err)
	}
	return parseOpenAIGuard(raw), nil
}

// parseOpenAIGuard reads a chat-completions answer whose first choice is a
// Qwen3Guard verdict (see ParseQwen3Guard). An answer without a choice is
// level Unknown with a reason; the answer is always kept.
func parseOpenAIGuard(raw []byte) contracts.Moderation {
	var res struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Choices) == 0 {
		return contracts.Moderation{Level: contracts.LevelUnknown, Categories: []string{}, Provider: ProviderOpenAI,
			Raw: string(raw), Reasons: []string{"unreadable answer: no choices"}}
	}
	mod := ParseQwen3Guard(res.Choices[0].Message.Content)
	mod.Provider = ProviderOpenAI
	return mod
}

var (
	safetyLine  = regexp.MustCompile(`(?i)Safety:\s*(Safe|Unsafe|Controversial)`)
	refusalLine = regexp.MustCompile(`(?i)Refusal:\s*(Yes|No)`)
)

// ParseQwen3Guard reads Qwen3Guard's text answer. A text without a safety
// line is level Unknown; the text is always kept.
func ParseQwen3Guard(text string) contracts.Moderation {
	mod := contracts.Moderation{Level: contracts.LevelUnknown, Categories: namedCategories(text), Raw: text}
	if m := safetyLine.FindStringSubmatch(text); m != nil {
		mod.Level = level(m[1])
	} else {
		mod.Reasons = []string{"no Safety: line in the guard's answer"}
	}
	if m := refusalLine.FindStringSubmatch(text); m != nil {
		mod.Refusal = refusal(m[1])
	}
	return mod
}

// refusal spells a guard's refusal answer as Yes or No, or empty when it is
// neither. Case-insensitive matching also takes "Yeſ" (long s) for yes, so
// the answer is respelled rather than re-cased.
func refusal(s string) string {
	for _, r := range []string{"Yes", "No"} {
		if strings.EqualFold(strings.TrimSpace(s), r) {
			return r
		}
	}
	return ""
}

func level(s string) contracts.SafetyLevel {
	for _, l := range []contracts.SafetyLevel{contracts.LevelSafe, contracts.LevelControversial, contracts.LevelUnsafe} {
		if strings.EqualFold(strings.TrimSpace(s), string(l)) {
			return l
		}
	}
	return contracts.LevelUnknown
}

// namedCategories finds every Qwen3Guard category named in text, in any case;
// "Non-violent Illegal Acts" is not also read as "Violent".
func namedCategories(text string) []string {
	lower := strings.ToLower(text)
	out := []string{}
	for _, c := range categories {
		l := strings.ToLower(c)
		idx := strings.Index(lower, l)
		for idx >= 0 && c == contracts.CategoryViolent && idx >= 4 && lower[idx-4:idx] == "non-" {
			next := strings.Index(lower[idx+1:], l)
			if next < 0 {
				idx = -1
				break
			}
			idx += 1 + next
		}
		if idx >= 0 {
			out = append(out, c)
		}
	}
	return out
}

func post(ctx context.Context, c *http.Client, url string, header http.Header, body []byte) ([]byte, error) {
	if c == nil {
		return nil, errors.New("no HTTP client configured")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxGuardBody))
	if err != nil {
		return nil, fmt.Errorf("read answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(string(raw[:min(len(raw), 300)])))
	}
	return raw, nil
}
