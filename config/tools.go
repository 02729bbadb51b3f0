package config

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"
	"time"
)

// Tools are what the default turn's agent may call besides search_kb
// (docs/agents.md, "Tools from MCP servers").
type Tools struct {
	// MCP are MCP servers whose tools the agent calls, each server's
	// results evidence of the source kind it declares.
	MCP []MCPServer `yaml:"mcp"`
}

// MCPServer is one entry of tools.mcp: a command run over stdio, or a
// Streamable HTTP URL. package mcptools connects to it (agent.New); the
// zero limits are its defaults (30s, 30s, 3 attempts, 64 KiB).
type MCPServer struct {
	// Name prefixes the server's tools (name__tool).
	Name string `yaml:"name"`
	// Source is the kind of evidence the server's results are, which the
	// Guardian's source rules count: doc, db, policy or graph.
	Source string `yaml:"source"`
	// Command, Args, Env and Dir start a server over stdio; the command
	// gets Env and only PATH, HOME, USER, LANG, TMPDIR and the like of
	// sgrgraph's own environment.
	Command string            `yaml:"command"`
	Args    []string          `yaml:"args"`
	Env     map[string]string `yaml:"env"`
	Dir     string            `yaml:"dir"`
	// URL is a Streamable HTTP endpoint; Headers and BearerToken go with
	// each of its requests.
	URL         string            `yaml:"url"`
	Headers     map[string]string `yaml:"headers"`
	BearerToken string            `yaml:"bearer_token"`
	// Allow (when not empty) and Deny pick the server's tools offered, by
	// the server's names or path.Match patterns; deny wins.
	Allow []string `yaml:"allow"`
	Deny  []string `yaml:"deny"`
	// Timeout bounds one call, ConnectTimeout one connection (start,
	// handshake, tool list); Attempts bounds the connections one call may
	// make; MaxResultBytes what one call returns.
	Timeout        time.Duration `yaml:"timeout"`
	ConnectTimeout time.Duration `yaml:"connect_timeout"`
	Attempts       int           `yaml:"attempts"`
	MaxResultBytes int           `yaml:"max_result_bytes"`
}

var (
	mcpName  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,31}$`)
	envBrace = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)
)

// Validate names each bad key of tools.
func (t Tools) Validate() error {
	var errs []error
	seen := map[string]int{}
	for i, s := range t.MCP {
		bad := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("mcp[%d].%s", i, fmt.Sprintf(format, args...)))
		}
		if !mcpName.MatchString(s.Name) {
			bad("name: %q is not 1 to 32 letters, digits and hyphens, starting with a letter or digit", s.Name)
		} else if j, ok := seen[s.Name]; ok {
			bad("name: %q is mcp[%d]'s too; each server's name prefixes its tools", s.Name, j)
		}
		seen[s.Name] = i
		switch s.Source {
		case "doc", "db", "policy", "graph":
		default:
			bad("source: %q is not doc, db, policy or graph: say what kind of evidence the server's tools give", s.Source)
		}
		switch {
		case s.Command == "" && s.URL == "":
			bad("command: neither command nor url is set")
		case s.Command != "" && s.URL != "":
			bad("url: set with command; a server is one or the other")
		case s.URL != "":
			if u, err := url.Parse(s.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				bad("url: %q is not an http or https URL", s.URL)
			}
			if len(s.Args) > 0 || len(s.Env) > 0 || s.Dir != "" {
				bad("args: args, env and dir are set with url; they start a command")
			}
			for k := range s.Headers {
				if strings.EqualFold(k, "Authorization") && s.BearerToken != "" {
					bad("headers.%s: set with bearer_token, which is sent as the Authorization header", k)
				}
			}
		default:
			if len(s.Headers) > 0 || s.BearerToken != "" {
				bad("headers: headers and bearer_token are set with command; they go with a url's requests")
			}
		}
		for _, p := range s.Allow {
			if _, err := path.Match(p, ""); err != nil || p == "" {
				bad("allow: %q is not a tool name or pattern", p)
			}
		}
		for _, p := range s.Deny {
			if _, err := path.Match(p, ""); err != nil || p == "" {
				bad("deny: %q is not a tool name or pattern", p)
			}
		}
		if s.Timeout < 0 || s.Timeout > 10*time.Minute {
			bad("timeout: %s is outside 0..10m", s.Timeout)
		}
		if s.ConnectTimeout < 0 || s.ConnectTimeout > 10*time.Minute {
			bad("connect_timeout: %s is outside 0..10m", s.ConnectTimeout)
		}
		if s.Attempts < 0 || s.Attempts > 10 {
			bad("attempts: %d is outside 0..10", s.Attempts)
		}
		if s.MaxResultBytes < 0 {
			bad("max_result_bytes: %d is negative", s.MaxResultBytes)
		}
	}
	return errors.Join(errs...)
}

// expand writes ${NAME} in each server's env values, headers and bearer
// token as the variable's value, read through lookup: a secret stays in
// the environment, not in the file. A variable that is not set is an error.
func (t *Tools) expand(lookup func(string) (string, bool)) error {
	var errs []error
	for i := range t.MCP {
		s := &t.MCP[i]
		one := func(key string, v *string) {
			*v = envBrace.ReplaceAllStringFunc(*v, func(m string) string {
				name := envBrace.FindStringSubmatch(m)[1]
				val, ok := lookup(name)
				if !ok {
					errs = append(errs, fmt.Errorf("config: tools.mcp[%d].%s: %s is not set in the environment", i, key, m))
				}
				return val
			})
		}
		one("bearer_token", &s.BearerToken)
		for _, m := range []struct {
			key string
			kv  map[string]string
		}{{"env", s.Env}, {"headers", s.Headers}} {
			for k, v := range m.kv {
				one(m.key+"."+k, &v)
				m.kv[k] = v
			}
		}
	}
	return errors.Join(errs...)
}
