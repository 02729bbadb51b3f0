package tests

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/models"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// transcriptPaths are the paths of the default graph a transcript file
// must exist for; more files may be added beside them.
var transcriptPaths = []string{"normal_en", "clarify_ru", "block_spam", "guardian_block_unsafe", "policy_deny",
	"retry_pass", "fail_safe_exit", "model_unavailable"}

// TestTranscripts runs the data-driven transcript files of
// testdata/transcripts (see the package comment for their commands);
// `go test ./tests -run TestTranscripts -update` rewrites their outputs.
func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob("testdata/transcripts/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range transcriptPaths {
		if _, err := os.Stat(filepath.Join("testdata/transcripts", p)); err != nil {
			t.Errorf("transcript of path %s: %v", p, err)
		}
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := &transcriptRunner{dir: t.TempDir(), config: map[string]any{}}
			sgrtest.RunDataDriven(t, f, *update, r.run)
		})
	}
}

// transcriptRunner holds what a file's commands have set so far.
type transcriptRunner struct {
	dir    string         // the configuration file, shared by the file's turns
	config map[string]any // the keys set by config, nested as in the YAML file
	script []string       // the scripted model's replies; nil: the offline engine
}

func (r *transcriptRunner) run(c *sgrtest.Case) string {
	var err error
	switch c.Cmd {
	case "config":
		err = r.setConfig(c.Args)
	case "model":
		err = r.setModel(c)
	case "run":
		return r.turn(c)
	default:
		err = fmt.Errorf("unknown command %q (config, model, run)", c.Cmd)
	}
	if err != nil {
		return "error: " + err.Error()
	}
	return "ok"
}

// setConfig lays key=value pairs over the configuration: a dotted key
// names a key of the configuration file, the value is YAML, and a list in
// parentheses is a list of strings.
func (r *transcriptRunner) setConfig(args []sgrtest.Arg) error {
	if len(args) == 0 {
		return errors.New("config: no key=value")
	}
	before, err := yaml.Marshal(r.config)
	if err != nil {
		return err
	}
	keep := func(err error) error { // a refused command changes nothing
		r.config = map[string]any{}
		_ = yaml.Unmarshal(before, &r.config)
		return err
	}
	for _, a := range args {
		var v any = a.Vals
		if !a.List {
			if len(a.Vals) != 1 {
				return keep(fmt.Errorf("config: %s has no value", a.Key))
			}
			if err := yaml.Unmarshal([]byte(a.Vals[0]), &v); err != nil {
				return keep(fmt.Errorf("config: %s: %w", a.Key, err))
			}
		}
		m, path := r.config, strings.Split(a.Key, ".")
		for _, k := range path[:len(path)-1] {
			next, ok := m[k].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[k] = next
			}
			m = next
		}
		m[path[len(path)-1]] = v
	}
	if _, err := r.loadConfig(); err != nil {
		return keep(err)
	}
	return nil
}

// loadConfig reads the keys set so far the way a configuration file is
// read: over the defaults, unknown keys refused, every value validated.
func (r *transcriptRunner) loadConfig() (config.Config, error) {
	data, err := yaml.Marshal(r.config)
	if err != nil {
		return config.Config{}, err
	}
	path := filepath.Join(r.dir, "sgrgraph.yaml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return config.Config{}, err
	}
	cfg, err := config.Load(path, nil)
	if err != nil { // the file's name is a temporary folder's: not for the output
		return config.Config{}, errors.New(strings.ReplaceAll(err.Error(), path, "sgrgraph.yaml"))
	}
	if cfg.KB.CacheDir == "" {
		cfg.KB.CacheDir = sharedIndex(cfg.KB.Dir)
	}
	return cfg, nil
}

// setModel chooses the model: offline (the default), or scripted with one
// reply per input line.
func (r *transcriptRunner) setModel(c *sgrtest.Case) error {
	name := ""
	if len(c.Args) == 1 && c.Args[0].Vals == nil {
		name = c.Args[0].Key
	}
	switch name {
	case "offline":
		r.script = nil
	case "scripted":
		r.script = strings.Split(c.Input, "\n")
		if _, err := replies(r.script); err != nil {
			return err
		}
	default:
		return errors.New("model: offline or scripted")
	}
	return nil
}

// replies reads a script: `call TOOL JSON`, `text CONTENT` or `fail MESSAGE`.
func replies(lines []string) ([]sgrtest.Reply, error) {
	var out []sgrtest.Reply
	for i, l := range lines {
		kind, rest, _ := strings.Cut(l, " ")
		switch kind {
		case "call":
			name, args, _ := strings.Cut(rest, " ")
			out = append(out, sgrtest.ToolCall(name, args))
		case "text":
			out = append(out, sgrtest.Text(rest))
		case "fail":
			out = append(out, sgrtest.Fail(errors.New(rest)))
		default:
			return nil, fmt.Errorf("model: reply %d: %q is not call, text or fail", i+1, kind)
		}
	}
	return out, nil
}

// turn runs the input as one user message through the default agent built
// from the configuration and model set so far, and renders the transcript.
// Arguments: role=, lang=, session=.
func (r *transcriptRunner) turn(c *sgrtest.Case) string {
	cfg, err := r.loadConfig()
	if err != nil {
		return "error: " + err.Error()
	}
	var o agent.Options
	var scripted *sgrtest.ScriptedModel
	if r.script != nil {
		rs, err := replies(r.script)
		if err != nil {
			return "error: " + err.Error()
		}
		scripted = sgrtest.NewScriptedModel(rs...)
		o.Model = scripted
	}
	ctx := context.Background()
	a, err := agent.New(ctx, cfg, o)
	if err != nil {
		return "error: " + err.Error()
	}
	defer a.Close()
	turn := agent.Turn{SessionID: "transcript", Message: c.Input}
	turn.Role, _ = c.Arg("role")
	turn.Language, _ = c.Arg("lang")
	if s, ok := c.Arg("session"); ok {
		turn.SessionID = s
	}
	s, err := a.RunState(ctx, turn)
	var out string
	switch f, failed := models.FailureOf(err); {
	case failed:
		out = fmt.Sprintf("failure: node=%s service=%s cause=%s\nmessage: %s\n", f.Node, f.Service, f.Cause, f.Message)
	case err != nil:
		return "error: " + err.Error()
	default:
		out = sgrtest.Transcript(s)
	}
	if scripted != nil {
		out += fmt.Sprintf("script: %d calls, %d replies\n", len(scripted.Requests()), len(r.script))
	}
	return out
}
