package main

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/templates"
)

// turnFlags are the flags of the commands that run turns.
type turnFlags struct {
	kbDir, cacheDir, lang, trace string
	role                         string
	provider, baseURL, model     string
	thread, store                string
	asJSON                       bool
	markdown                     markdownMode
	// keepThreads opens the thread store even without --thread: a
	// server's sessions live there.
	keepThreads bool
}

func (f *turnFlags) register(cmd *cobra.Command) {
	f.registerKB(cmd)
	f.registerModel(cmd)
	cmd.Flags().StringVar(&f.lang, "lang", "", "answer language, ru or en (default: the language of the question)")
	cmd.Flags().StringVar(&f.role, "role", "", "the asker's role, for the query policy's denied_request_types (guardian.policy)")
	cmd.Flags().StringVar(&f.trace, "trace", "", "write one JSON line per model call to this file")
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print the structured result as JSON")
	cmd.Flags().StringVar((*string)(&f.markdown), "markdown", string(markdownAuto), "how answers are shown: auto (formatted on a terminal unless NO_COLOR is set, raw Markdown when piped), render or raw")
	cmd.Flags().StringVar(&f.thread, "thread", "", "keep the conversation in this thread and continue it if it exists")
	cmd.Flags().StringVar(&f.store, "store", "", "where threads are kept: postgres://..., redis://... or a SQLite file (default: threads.store, else threads.db in the user cache dir)")
}

// registerKB adds the flags that choose the knowledge base.
func (f *turnFlags) registerKB(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.kbDir, "kb", "", "folder of Markdown articles to answer from (default: the embedded documentation)")
	cmd.Flags().StringVar(&f.cacheDir, "cache-dir", "", "where the search index is kept (default: kb.cache_dir, else the user cache dir)")
}

// registerModel adds the flags that choose the model server.
func (f *turnFlags) registerModel(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.provider, "provider", "", "model provider, offline or openai (default: model.provider)")
	cmd.Flags().StringVar(&f.baseURL, "base-url", "", "OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1 (default: model.base_url, $OPENAI_BASE_URL)")
	cmd.Flags().StringVar(&f.model, "model", "", "the model's name on that server (default: model.name)")
}

// override lays the model flags over the configuration.
func (f *turnFlags) override(cfg *config.Config) {
	if f.provider != "" {
		cfg.Model.Provider = f.provider
	}
	if f.baseURL != "" {
		cfg.Model.BaseURL = f.baseURL
	}
	if f.model != "" {
		cfg.Model.Name = f.model
	}
}

// config is the configuration with the flags laid over it.
func (f *turnFlags) config(a *app) config.Config {
	cfg := a.cfg
	if f.kbDir != "" {
		cfg.KB.Dir = f.kbDir
	}
	if f.cacheDir != "" {
		cfg.KB.CacheDir = f.cacheDir
	}
	f.override(&cfg)
	cfg.Product = agent.ProductOf(cfg)
	return cfg
}

// build opens the knowledge base and compiles the agent; the returned
// function releases both.
func (f *turnFlags) build(cmd *cobra.Command, a *app) (*agent.Agent, func(), error) {
	if f.lang != "" {
		if err := contracts.CheckLanguage("--lang", f.lang); err != nil {
			return nil, nil, err
		}
	}
	cfg := f.config(a)
	opts := agent.Options{TracerProvider: a.telemetry.TracerProvider()}
	closeTrace := func() {}
	if f.trace != "" {
		file, err := os.Create(f.trace)
		if err != nil {
			return nil, nil, fmt.Errorf("--trace: %w", err)
		}
		opts.Trace = file
		closeTrace = func() { file.Close() }
	}
	cmd.SetContext(a.log.WithContext(cmd.Context()))
	closeStore := func() {}
	if f.thread != "" || f.keepThreads {
		store, err := agent.OpenStore(cmd.Context(), cmp.Or(f.store, cfg.Threads.Store))
		if err != nil {
			closeTrace()
			return nil, nil, fmt.Errorf("--store: %w", err)
		}
		opts.Store, closeStore = store, func() { store.Close() }
	} else if f.store != "" {
		closeTrace()
		return nil, nil, errors.New("--store: given without --thread; a turn keeps no thread unless --thread names one")
	}
	ag, err := agent.New(cmd.Context(), cfg, opts)
	if err != nil {
		closeTrace()
		closeStore()
		return nil, nil, err
	}
	k := ag.Knowledge()
	a.log.Info().Str("kb", k.Source).Int("files", k.Stats.Files).Int("chunks", k.Stats.Chunks).Msg("knowledge base ready")
	return ag, func() { ag.Close(); closeStore(); closeTrace() }, nil
}

func newAskCmd(a *app) *cobra.Command {
	var f turnFlags
	cmd := &cobra.Command{
		Use:   `ask "question"`,
		Short: "Run one guarded, schema-guided turn and print the answer",
		Args: func(cmd *cobra.Command, args []string) error {
			const usage = `sgrgraph ask "How do I configure the safety guard?"`
			switch {
			case len(args) != 1:
				return fmt.Errorf("ask needs one question, in quotes (%s); got %d arguments", usage, len(args))
			case strings.TrimSpace(args[0]) == "":
				return fmt.Errorf("the question is empty: %s", usage)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := newView(a, &f)
			if err != nil {
				return err
			}
			ag, done, err := f.build(cmd, a)
			if err != nil {
				return err
			}
			defer done()
			turn := agent.Turn{SessionID: cmp.Or(f.thread, newSessionID()), Number: 1, Message: args[0], Language: f.lang, Thread: f.thread, Role: f.role}
			p := v.newPrinter(args[0])
			if !f.asJSON {
				turn.Events = p.event
			}
			res, err := ag.Run(cmd.Context(), turn)
			var lines <-chan line
			input := func() <-chan line {
				if lines == nil {
					lines = readLines(cmd.Context(), cmd.InOrStdin(), 4*agent.MaxMessageRunes)
				}
				return lines
			}
			res, err = reviewed(cmd.Context(), ag, res, err, input, promptTo(isTerminal(cmd.InOrStdin()), f.asJSON, a.out, a.errOut), a.out, f.asJSON)
			if err != nil {
				if res.Failure != nil && f.asJSON {
					_ = writeJSON(a.out, res) // a script reads action "error" and the failure
				}
				return modelFailure(err, f.config(a))
			}
			if f.asJSON {
				return writeJSON(a.out, res)
			}
			p.finish(res)
			return nil
		},
	}
	f.register(cmd)
	return cmd
}

// printer shows a turn as it happens: the UI messages, the answer once the
// Guardian has passed it, and the sources. The agent's events never carry
// a draft before its verdict, so nothing printed is ever withdrawn. The
// answer is printed from its UI message, not token by token: the tokens
// come all at once after the verdict anyway, and the message is the final
// text (its sources numbered as listed) and can be rendered whole.
type printer struct {
	mu       sync.Mutex
	out      io.Writer
	render   bool                // Markdown shown formatted (a terminal), else raw
	labels   templates.Catalogue // the footer's words
	lang     string              // the language asked for (--lang), if any
	question string
	answered bool // the reply is on screen (a turn resumed after a review sends no events)
}

// newPrinter is the printer of one turn.
func (v view) newPrinter(question string) *printer {
	return &printer{out: v.out, render: v.render, labels: v.labels, lang: v.lang, question: question}
}

// view is how turns are shown: where, rendered or not, in which words.
type view struct {
	out    io.Writer
	render bool
	labels templates.Catalogue
	lang   string
}

// newView settles how a command shows its turns.
func newView(a *app, f *turnFlags) (view, error) {
	render, err := f.markdown.rendered(isTerminal(a.out), os.Getenv("NO_COLOR"))
	if err != nil {
		return view{}, err
	}
	labels, err := templates.UILabels()
	if err != nil {
		return view{}, err
	}
	return view{out: a.out, render: render, labels: labels, lang: f.lang}, nil
}

func (p *printer) event(ev contracts.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case ev.Kind == contracts.EventUI:
		switch ev.UI.Type {
		case contracts.UIAnswer, contracts.UIClarification, contracts.UIRefusal: // the turn's reply, res.Answer
			p.answered = true
		}
		p.print(ev.UI.Content)
	case ev.Kind == contracts.EventVerdict && ev.Verdict.Verdict != contracts.VerdictPass:
		fmt.Fprintf(p.out, "[guardian: %s %s]\n\n", ev.Verdict.Verdict, strings.Join(ev.Verdict.Reasons, "; "))
	}
}

// print shows one message and a blank line after it.
func (p *printer) print(md string) {
	md = strings.TrimSpace(md)
	if p.render {
		md = renderMarkdown(md)
	}
	fmt.Fprintln(p.out, md)
	fmt.Fprintln(p.out)
}

// finish ends the output with the footer: what became of the request, on
// a line of its own, in the answer's language.
func (p *printer) finish(res contracts.StructuredResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.answered && res.Answer != "" {
		p.print(res.Answer)
	}
	fmt.Fprintln(p.out, footer(res, p.labels, cmp.Or(p.lang, templates.DetectLanguage(res.Answer), templates.DetectLanguage(p.question), "en")))
}

// footer says in plain words what became of the request: checked and
// passed, with the sources listed and the retries it took, or why there
// is no checked answer.
func footer(res contracts.StructuredResult, labels templates.Catalogue, lang string) string {
	var key string
	switch {
	case res.Action == contracts.ActionGuardianBlock:
		key = "footer_guardian_block"
	case res.Action == contracts.ActionBlock && res.Verdict != nil:
		key = "footer_policy"
	case res.Action == contracts.ActionBlock:
		key = "footer_block"
	case res.Action == contracts.ActionClarify:
		key = "footer_clarify"
	case res.Verdict == nil:
		key = "footer_unchecked"
	case res.Verdict.Verdict == contracts.VerdictPass:
		key = "footer_passed"
	default:
		key = "footer_failed"
	}
	parts := []string{labels.Label(lang, key, nil)}
	if key == "footer_passed" {
		parts = append(parts, labels.Count(lang, "footer_sources", sourcesListed(res)))
	}
	if res.RetryCount > 0 {
		parts = append(parts, labels.Count(lang, "footer_retries", res.RetryCount))
	}
	return strings.Join(parts, " · ")
}

// sourcesListed is how many sources the answer lists: the articles it
// cites, which finalize numbered 1..n, or all of them when it cites none.
func sourcesListed(res contracts.StructuredResult) int {
	cited := 0
	for i := range res.Articles {
		if strings.Contains(res.Answer, "["+strconv.Itoa(i+1)+"]") {
			cited++
		}
	}
	if cited == 0 {
		return len(res.Articles)
	}
	return cited
}

// newSessionID is a random id for a session that has none.
func newSessionID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
