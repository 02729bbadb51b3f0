// Package runner sends the items of labelled sets through sgrgraph's
// default turn (package agent), as `sgrgraph ask` runs one, and records
// what each turn showed as an eval.Observation for package eval to measure.
package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/eval"
	"github.com/sgrgraph/sgrgraph/nodes"
)

// Modes are the injection modes of the A/B, in report order.
var Modes = []string{"synthetic", "directive", "trace"}

// MaxParallel bounds the turns run at once.
const MaxParallel = 64

// Options say how the turns run.
type Options struct {
	// Config is the configuration every turn runs under; an item's kb and
	// an injection mode of the A/B are laid over it.
	Config config.Config
	// Agent supplies parts built in Go (a test's model double); its
	// Knowledge is ignored, the runner opens each knowledge base once.
	Agent agent.Options
	// Modes are the injection modes injection items run under; empty:
	// all three.
	Modes []string
	// Parallel is how many turns run at once; 0 is 1.
	Parallel int
}

// job is one turn to run: an item of a set under an injection mode.
type job struct {
	set, item int
	mode      string
}

// Run runs every item of the sets and returns each set's observations,
// in the sets' order. A turn that fails is an observation with its Error;
// only a knowledge base or an agent that cannot be built stops the run.
func Run(ctx context.Context, sets []eval.Set, o Options) ([][]eval.Observation, error) {
	if o.Parallel < 0 || o.Parallel > MaxParallel {
		return nil, fmt.Errorf("parallel: %d is outside 1..%d", o.Parallel, MaxParallel)
	}
	modes := o.Modes
	if len(modes) == 0 {
		modes = Modes
	}
	for _, m := range modes {
		if !slices.Contains(Modes, m) {
			return nil, fmt.Errorf("modes: %q is not one of %s", m, strings.Join(Modes, ", "))
		}
	}
	p, err := newPool(o)
	if err != nil {
		return nil, err
	}
	defer p.close()
	var jobs []job
	for si, s := range sets {
		for ii, it := range s.Items {
			if it.Kind != eval.KindInjection {
				jobs = append(jobs, job{si, ii, o.Config.Agent.Injection})
				continue
			}
			for _, m := range modes {
				jobs = append(jobs, job{si, ii, m})
			}
		}
	}
	out := make([][]eval.Observation, len(sets))
	obs := make([]eval.Observation, len(jobs))
	errs := make([]error, len(jobs))
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(o.Parallel, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				obs[i], errs[i] = p.observe(ctx, sets[jobs[i].set], jobs[i])
			}
		}()
	}
	for i := range jobs {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, j := range jobs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out[j.set] = append(out[j.set], obs[i])
	}
	return out, nil
}

// pool holds the knowledge bases and the agents the turns need, each
// built once, on first use. Knowledge bases are keyed by folderKey, so
// that one folder named two ways is opened and indexed once.
type pool struct {
	o          Options
	configured string // folderKey of the configured knowledge base; "" for the embedded documentation
	mu         sync.Mutex
	knowledge  map[string]*agent.Knowledge
	baselines  map[string]*eval.Baseline // the retrieval baseline of each knowledge base
	agents     map[[2]string]*agent.Agent
}

func newPool(o Options) (*pool, error) {
	configured, err := folderKey(o.Config.KB.Dir)
	if err != nil {
		return nil, fmt.Errorf("kb.dir: %w", err)
	}
	return &pool{o: o, configured: configured, knowledge: map[string]*agent.Knowledge{}, baselines: map[string]*eval.Baseline{},
		agents: map[[2]string]*agent.Agent{}}, nil
}

// folderKey is the one name of a knowledge-base folder however it is
// written (relative or absolute, with "..", through a symbolic link): its
// absolute path, cleaned, links resolved when the folder exists. A folder
// that does not exist keeps its absolute path, and opening it says so.
func folderKey(dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("%s: %w", dir, err)
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		return resolved, nil
	}
	return abs, nil
}

// knowledgeKey is the key of an item's knowledge-base folder ("" the
// configured one): "" also when it names the configured folder.
func (p *pool) knowledgeKey(kbDir string) (string, error) {
	key, err := folderKey(kbDir)
	if err != nil {
		return "", fmt.Errorf("kb: %w", err)
	}
	if key == p.configured {
		return "", nil
	}
	return key, nil
}

func (p *pool) close() {
	for _, a := range p.agents {
		a.Close()
	}
	for _, k := range p.knowledge {
		k.Close()
	}
}

// agent is the agent for a knowledge-base folder ("" the configured one)
// and an injection mode, with that knowledge base's retrieval baseline.
func (p *pool) agent(ctx context.Context, kbDir, mode string) (*agent.Agent, *eval.Baseline, error) {
	kbDir, err := p.knowledgeKey(kbDir)
	if err != nil {
		return nil, nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	cfg := p.o.Config
	k, ok := p.knowledge[kbDir]
	if !ok {
		c := cfg.KB
		if kbDir != "" {
			c.Dir = kbDir
			if c.CacheDir != "" { // beside the configured index, one folder per knowledge base
				sum := sha256.Sum256([]byte(kbDir))
				c.CacheDir = filepath.Clean(c.CacheDir) + ".kb-" + hex.EncodeToString(sum[:6])
			}
		}
		var err error
		if k, err = agent.OpenKnowledge(ctx, c); err != nil {
			return nil, nil, err
		}
		p.knowledge[kbDir] = k
		texts := make([]string, len(k.Docs))
		for i, d := range k.Docs {
			texts[i] = d.Text()
		}
		p.baselines[kbDir] = eval.NewBaseline(texts)
	}
	key := [2]string{kbDir, mode}
	if a, ok := p.agents[key]; ok {
		return a, p.baselines[kbDir], nil
	}
	cfg.Agent.Injection = mode
	if kbDir != "" {
		cfg.KB.Dir = kbDir
	}
	opts := p.o.Agent
	opts.Knowledge = k
	a, err := agent.New(ctx, cfg, opts)
	if err != nil {
		return nil, nil, err
	}
	p.agents[key] = a
	return a, p.baselines[kbDir], nil
}

// observe runs one job's turn and records what it showed.
func (p *pool) observe(ctx context.Context, s eval.Set, j job) (eval.Observation, error) {
	it := s.Items[j.item]
	a, base, err := p.agent(ctx, kbOf(s.Dir, it.KB), j.mode)
	if err != nil {
		return eval.Observation{}, fmt.Errorf("%s line %d: %w", s.Name, it.Line, err)
	}
	o := eval.Observation{Item: j.item, Mode: j.mode}
	st, err := a.RunState(ctx, agent.Turn{SessionID: fmt.Sprintf("eval-%s-%d", s.Name, it.Line), Number: 1, Message: it.Message()})
	switch {
	case err != nil:
		o.Error = err.Error()
	case st == nil:
		o.Error = "the turn ended without a state"
	default:
		observeState(&o, st)
	}
	if it.Kind == eval.KindAnswers {
		o.Baseline = base.Answer(it.Message())
		o.BestParagraph = base.BestParagraph(it.Reference)
	}
	return o, nil
}

// observeState reads a finished turn's state.
func observeState(o *eval.Observation, s *contracts.ChatState) {
	if m := s.Moderation; m != nil {
		o.Level, o.Categories, o.Score = string(m.Level), m.Categories, guardScore(m)
	}
	o.Action = string(s.Action)
	for _, q := range s.QueryTraces {
		o.Searches = append(o.Searches, q.Query)
		for _, a := range q.Articles {
			if !slices.Contains(o.Ranked, a.KBID) {
				o.Ranked = append(o.Ranked, a.KBID)
			}
		}
	}
	o.Answer, o.Cited = answerAndSources(s)
	if s.Plan != nil {
		o.Subqueries, o.SpamScore, o.Planned = s.Plan.Subqueries, s.Plan.SpamScore, true
	}
	o.Drafted, o.EarlyTermination = firstDraft(s.Diagnostics.Nodes)
	o.Retries = s.RetryCount
	o.Tokens = s.Diagnostics.Tokens.Prompt + s.Diagnostics.Tokens.Completion
}

// firstDraft reads the node runs of a turn: whether the agent wrote a
// draft (the loop ended and the Guardian's evidence check ran), and
// whether it had searched before that first draft.
func firstDraft(runs []contracts.NodeRun) (drafted, unsearched bool) {
	searched := false
	for _, r := range runs {
		switch r.Node {
		case nodes.AgentToolsName:
			searched = true
		case nodes.EvidenceCheckName:
			return true, !searched
		}
	}
	return false, false
}

// guardScore is the guard's confidence that a message is unsafe: the
// flagged probability (1 - the Safe level's) of a classifier that gives
// probabilities (the offline guard's are calibrated), else the level as an
// ordinal score: Safe 0, Controversial 0.5, Unsafe 1 (Unknown, a failed
// classification, in the middle).
func guardScore(m *contracts.Moderation) float64 {
	if m.Scores != nil {
		return 1 - m.Scores.Levels[contracts.LevelSafe]
	}
	switch m.Level {
	case contracts.LevelSafe:
		return 0
	case contracts.LevelUnsafe:
		return 1
	}
	return 0.5
}

// answerAndSources splits a finished turn's answer from the list of
// sources finalize appends to it, and names the articles the answer's [n]
// citations number: none when it cites none, though the list then shows
// every article found.
// Finalize renumbers the citations of the draft, so the answer is read
// off the final text, not the draft.
func answerAndSources(s *contracts.ChatState) (string, []string) {
	answer := withoutSources(s.Answer)
	var cited []string
	for i, a := range s.Articles {
		if strings.Contains(answer, fmt.Sprintf("[%d]", i+1)) {
			cited = append(cited, a.KBID)
		}
	}
	return answer, cited
}

// withoutSources cuts the list of sources off the end of an answer: the
// last block after a blank line when it is a heading line ("Sources:", in
// the answer's language) followed only by lines "[n] title".
func withoutSources(answer string) string {
	i := strings.LastIndex(answer, "\n\n")
	if i < 0 {
		return answer
	}
	lines := strings.Split(answer[i+2:], "\n")
	if len(lines) < 2 {
		return answer
	}
	for _, l := range lines[1:] {
		if !sourceLine.MatchString(l) {
			return answer
		}
	}
	return answer[:i]
}

// sourceLine is one line of the list of sources.
var sourceLine = regexp.MustCompile(`^\[\d+\] `)

// kbOf is the folder an item's kb names: as written when absolute, else
// relative to its set's folder dir; "" (the configured one) when it names none.
func kbOf(dir, kb string) string {
	if kb == "" || filepath.IsAbs(kb) {
		return kb
	}
	return filepath.Join(dir, kb)
}
