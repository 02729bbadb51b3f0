package mcptools

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strings"
	"time"
)

// Server is one MCP server to take tools from: a Command run over stdio,
// or a URL spoken to over Streamable HTTP.
type Server struct {
	// Name prefixes the server's tools (Name__tool): letters, digits and
	// hyphens, at most 32.
	Name string
	// Command, Args, Env and Dir start a server over stdio. The command
	// gets Env and, of this process's environment, only what a program
	// needs to run (PATH, HOME, USER, LANG, TMPDIR, the XDG directories):
	// keys and tokens this process holds stay here unless Env names them.
	Command string
	Args    []string
	Env     map[string]string
	Dir     string
	// URL is a Streamable HTTP endpoint (http or https); Headers go with
	// every request, and BearerToken as "Authorization: Bearer …".
	URL         string
	Headers     map[string]string
	BearerToken string
	// Allow, when not empty, offers only the tools it matches; Deny offers
	// none it matches, whatever Allow says. Entries are path.Match
	// patterns on the server's own names ("read_*"). An Allow entry
	// without wildcards that names no tool of the server is an error: it
	// is a typo, or a tool the server no longer has.
	Allow, Deny []string
	// ConnectTimeout bounds one connection: starting the command or
	// reaching the URL, the handshake and listing the tools;
	// DefaultConnectTimeout when 0.
	ConnectTimeout time.Duration
	// CallTimeout bounds one tool call; DefaultCallTimeout when 0.
	CallTimeout time.Duration
	// Attempts bounds the connections one call may make, the first
	// included, and the tries of a first connection; DefaultAttempts when 0.
	Attempts int
	// MaxResultBytes bounds the text one call returns; what is longer is
	// cut, with a note saying so. DefaultMaxResultBytes when 0.
	MaxResultBytes int
}

// The defaults of a Server's zero fields.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultCallTimeout    = 30 * time.Second
	DefaultAttempts       = 3
	DefaultMaxResultBytes = 64 << 10
)

// Separator joins a server's name and its tool's: fs__read_text_file.
const Separator = "__"

// maxToolName is the longest tool name chat APIs take (OpenAI's 64).
const maxToolName = 64

var (
	serverName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,31}$`)
	toolName   = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
)

// Transport is "stdio" for a Command, "http" for a URL.
func (s Server) Transport() string {
	if s.URL != "" {
		return "http"
	}
	return "stdio"
}

// Validate names each field that is wrong, by its key in the
// configuration (tools.mcp's).
func (s Server) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !serverName.MatchString(s.Name) {
		bad("name: %q is not 1 to 32 letters, digits and hyphens, starting with a letter or digit", s.Name)
	}
	switch {
	case s.Command == "" && s.URL == "":
		bad("command or url: neither is set; a server is a command run over stdio or a Streamable HTTP URL")
	case s.Command != "" && s.URL != "":
		bad("command and url: both are set; a server is one or the other")
	case s.URL != "":
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("url: %q is not an http or https URL", s.URL)
		}
		if len(s.Args) > 0 || len(s.Env) > 0 || s.Dir != "" {
			bad("args, env and dir: set with url; they start a command")
		}
		for k := range s.Headers {
			if k == "" || strings.ContainsAny(k, " :\r\n") {
				bad("headers: %q is not a header name", k)
			} else if s.BearerToken != "" && http.CanonicalHeaderKey(k) == "Authorization" {
				bad("headers.%s: set with bearer_token, which is sent as the Authorization header", k)
			}
		}
	default:
		if len(s.Headers) > 0 || s.BearerToken != "" {
			bad("headers and bearer_token: set with command; they go with a url's requests")
		}
		for k := range s.Env {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				bad("env: %q is not a variable name", k)
			}
		}
	}
	for _, list := range []struct {
		key      string
		patterns []string
	}{{"allow", s.Allow}, {"deny", s.Deny}} {
		for _, p := range list.patterns {
			if _, err := path.Match(p, ""); err != nil || p == "" {
				bad("%s: %q is not a tool name or path.Match pattern", list.key, p)
			}
		}
	}
	if s.ConnectTimeout < 0 || s.ConnectTimeout > 10*time.Minute {
		bad("connect_timeout: %s is outside 0..10m", s.ConnectTimeout)
	}
	if s.CallTimeout < 0 || s.CallTimeout > 10*time.Minute {
		bad("timeout: %s is outside 0..10m", s.CallTimeout)
	}
	if s.Attempts < 0 || s.Attempts > 10 {
		bad("attempts: %d is outside 0..10", s.Attempts)
	}
	if s.MaxResultBytes < 0 {
		bad("max_result_bytes: %d is negative", s.MaxResultBytes)
	}
	return errors.Join(errs...)
}

// withDefaults fills the zero limits.
func (s Server) withDefaults() Server {
	if s.ConnectTimeout == 0 {
		s.ConnectTimeout = DefaultConnectTimeout
	}
	if s.CallTimeout == 0 {
		s.CallTimeout = DefaultCallTimeout
	}
	if s.Attempts == 0 {
		s.Attempts = DefaultAttempts
	}
	if s.MaxResultBytes == 0 {
		s.MaxResultBytes = DefaultMaxResultBytes
	}
	return s
}

// offered says whether the server's tool of this name is offered: Allow
// (when given) matches it and Deny does not.
func (s Server) offered(name string) bool {
	if matchesAny(s.Deny, name) {
		return false
	}
	return len(s.Allow) == 0 || matchesAny(s.Allow, name)
}

func matchesAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// unmatchedAllow are the Allow entries without wildcards that name none
// of the server's tools.
func (s Server) unmatchedAllow(names []string) []string {
	var out []string
	for _, p := range s.Allow {
		if strings.ContainsAny(p, `*?[\`) {
			continue
		}
		found := false
		for _, n := range names {
			found = found || n == p
		}
		if !found {
			out = append(out, p)
		}
	}
	return out
}

// localName is the name the agent knows the server's tool by: the
// server's name, Separator and the tool's, with any character a chat API
// refuses in a name (a dot, a slash) written as an underscore.
func (s Server) localName(remote string) (string, error) {
	name := s.Name + Separator + strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, remote)
	if len(name) > maxToolName || !toolName.MatchString(name) {
		return "", fmt.Errorf("the name %s is over the %d characters chat APIs take; deny the tool, or give the server a shorter name",
			name, maxToolName)
	}
	return name, nil
}
