package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sgrgraph/sgrgraph/config"
)

// An assistant is a named, versioned configuration of the default turn
// (another knowledge base, guard mode, model, tables, texts…), served
// beside the configuration the server started with. Its versions are kept
// in the thread store, one checkpoint a version in the thread
// "assistant:NAME", so that every replica sharing the store shares them;
// a version never changes once made. The assistant a conversation ran is
// kept beside it, in "assistant-of:THREAD" (Bind).

const (
	assistantPrefix = "assistant:"
	bindingPrefix   = "assistant-of:"
	// MaxAssistantConfigBytes bounds an assistant's configuration as given.
	MaxAssistantConfigBytes = 64 << 10
	// MaxAssistantVersions bounds the versions of one assistant.
	MaxAssistantVersions = 1000
	// MaxAssistants bounds the assistants a store lists.
	MaxAssistants = 500
)

// assistantName is what an assistant may be called: it is a model name in
// chat completions and part of a store key, so it has no '@' or '/'.
var assistantName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ErrNoAssistant is the error (tested with errors.Is) of a name or
// version no assistant has.
var ErrNoAssistant = errors.New("no such assistant")

// AssistantVersion is one version of an assistant: the config file's keys
// it lays over the server's configuration, as they were given.
type AssistantVersion struct {
	Name      string          `json:"name"`
	Version   int             `json:"version"`
	Config    json.RawMessage `json:"config"`
	CreatedAt time.Time       `json:"created_at"`
	// CreatedBy is the id of the API key that made it.
	CreatedBy string `json:"created_by,omitempty"`
}

// Ref is the name an assistant and its version, "name" or "name@3" in
// writing; Version 0 is the latest.
type Ref struct {
	Name    string `json:"name"`
	Version int    `json:"version"`
}

func (r Ref) String() string {
	if r.Version == 0 {
		return r.Name
	}
	return r.Name + "@" + strconv.Itoa(r.Version)
}

// ParseRef reads "name" or "name@version".
func ParseRef(s string) (Ref, error) {
	name, v, versioned := strings.Cut(s, "@")
	if err := CheckAssistantName(name); err != nil {
		return Ref{}, err
	}
	r := Ref{Name: name}
	if versioned {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxAssistantVersions {
			return Ref{}, fmt.Errorf("%q: the version after @ is a number from 1 to %d", s, MaxAssistantVersions)
		}
		r.Version = n
	}
	return r, nil
}

// CheckAssistantName says what is wrong with an assistant's name.
func CheckAssistantName(name string) error {
	if !assistantName.MatchString(name) {
		return fmt.Errorf("%q: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	return nil
}

// IsAssistantThread says whether a thread of the store holds an
// assistant's versions or a conversation's assistant, not a conversation:
// retention that drops idle conversations must keep it.
func IsAssistantThread(thread string) bool {
	return strings.HasPrefix(thread, assistantPrefix) || strings.HasPrefix(thread, bindingPrefix)
}

// BindingOf is the conversation whose assistant a binding thread names
// (IsAssistantThread); false for any other thread.
func BindingOf(thread string) (string, bool) { return strings.CutPrefix(thread, bindingPrefix) }

// serverOwned are the sections an assistant may not set: the server's own
// resources, and commands the server would run.
var serverOwned = map[string]string{
	"threads": "an assistant keeps its conversations in the server's thread store",
	"memory":  "an assistant keeps preferences in the server's memory store",
	"tools":   "an assistant's tools would be commands or servers this server runs and reaches; configure tools.mcp in the server's file",
}

// checkAssistantConfig checks the keys an assistant gives before they are
// laid over the server's configuration: a JSON object, bounded, without
// the server's own sections or secrets (which would be kept in the store
// and shown to whoever lists assistants).
func checkAssistantConfig(raw json.RawMessage) (map[string]any, error) {
	if len(raw) > MaxAssistantConfigBytes {
		return nil, fmt.Errorf("config: %d bytes, over the limit of %d", len(raw), MaxAssistantConfigBytes)
	}
	var keys map[string]any
	if err := json.Unmarshal(raw, &keys); err != nil || keys == nil {
		return nil, errors.New("config: an object of the config file's keys (kb, guard, model, tables, texts, guardian…)")
	}
	for key, why := range serverOwned {
		if _, ok := keys[key]; ok {
			return nil, fmt.Errorf("config.%s: not allowed: %s", key, why)
		}
	}
	if path := secretIn(keys, "config"); path != "" {
		return nil, fmt.Errorf("%s: not allowed: an assistant uses the server's secrets (SGRGRAPH_*_API_KEY); secrets are not kept in the store", path)
	}
	return keys, nil
}

// secretIn is the path of the first api_key or bearer_token set in v.
func secretIn(v any, path string) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k == "api_key" || k == "bearer_token" {
			return path + "." + k
		}
		if p := secretIn(m[k], path+"."+k); p != "" {
			return p
		}
	}
	return ""
}

// configError names the field of a configuration error as the request
// does: "config: guard.mode: …" reads "config.guard.mode: …".
func configError(err error) error {
	var lines []string
	for _, e := range flattenErrors(err) {
		msg := e.Error()
		if rest, ok := strings.CutPrefix(msg, "config: "); ok {
			msg = "config." + rest
		} else if rest, ok := strings.CutPrefix(msg, "config assistant: "); ok {
			msg = "config: " + rest
		}
		lines = append(lines, msg)
	}
	return errors.New(strings.Join(lines, "\n"))
}

func flattenErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// AssistantConfig is the configuration an assistant's version runs: its
// keys laid over base, checked as the config file is. Errors name the
// field as "config.SECTION.KEY: …".
func AssistantConfig(base config.Config, raw json.RawMessage) (config.Config, error) {
	if _, err := checkAssistantConfig(raw); err != nil {
		return config.Config{}, err
	}
	cfg, err := config.Overlay(base, raw, "assistant")
	if err != nil {
		return config.Config{}, configError(err)
	}
	return cfg, nil
}
