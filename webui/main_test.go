package webui_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/docs"
)

// The agents of the package's tests, built once: indexing takes a second.
// enforce answers from the documentation plus xssArticle, in the default
// guard mode; report shares its knowledge base in guard mode report, where
// a Guardian's refusal comes after the plan has read the user's intent.
var agents struct {
	enforce, report *agent.Agent
	// stores keep the agents' threads (Agent.Store), which the servers list
	// (GET /v1/threads); the test closes them.
	enforceStore, reportStore checkpoint.Store
}

// xssArticle is an article whose title and text carry HTML that would run
// if the page ever took knowledge-base text as HTML: each payload says
// where it came from in window.__pwned.
const xssArticle = `---
title: Frobnicator widget <img src=x onerror="window.__pwned='kb-title'">
kb_id: frobnicator
tags: [widget, frobnicator]
---
# Frobnicator widget

To configure the frobnicator widget, set ` + "`widget.frob`" + ` in the configuration file <img src=x onerror="window.__pwned='kb-img'">.

The frobnicator widget settings page <script>window.__pwned='kb-script'</script> lists every option of the widget.
`

func TestMain(m *testing.M) {
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	dir, err := os.MkdirTemp("", "sgrgraph-webui-test")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	kbDir := filepath.Join(dir, "kb")
	if err := writeKB(kbDir); err != nil {
		return 0, err
	}
	ctx := context.Background()
	cfg := config.Default()
	cfg.KB.Dir, cfg.KB.CacheDir = kbDir, filepath.Join(dir, "cache")
	agents.enforceStore, agents.reportStore = checkpoint.NewMemory(), checkpoint.NewMemory()
	defer agents.enforceStore.Close()
	defer agents.reportStore.Close()
	if agents.enforce, err = agent.New(ctx, cfg, agent.Options{Store: agents.enforceStore}); err != nil {
		return 0, err
	}
	defer agents.enforce.Close()
	cfg.Guard.Mode = "report"
	agents.report, err = agent.New(ctx, cfg, agent.Options{Store: agents.reportStore, Knowledge: agents.enforce.Knowledge()})
	if err != nil {
		return 0, err
	}
	defer agents.report.Close()
	return m.Run(), nil
}

// writeKB writes the embedded documentation and xssArticle into dir.
func writeKB(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	err := fs.WalkDir(docs.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := docs.FS.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, filepath.Base(p)), b, 0o644)
	})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "frobnicator.md"), []byte(xssArticle), 0o644)
}
