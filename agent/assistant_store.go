package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
)

// Assistants keeps assistants in a thread store and builds each version's
// agent once, when a turn first asks for it, keeping the most recently
// used ones (AssistantsOptions.MaxAgents). It is safe for concurrent use.
type Assistants struct {
	store checkpoint.Store
	base  config.Config
	opts  Options
	max   int

	mu    sync.Mutex
	built map[Ref]*builtAgent
	clock int64 // orders uses, for eviction
}

// builtAgent is one version's agent: being built until ready is closed.
type builtAgent struct {
	ready    chan struct{}
	agent    *Agent
	err      error
	refs     int
	lastUse  int64
	evicted  bool
	building bool
}

// AssistantsOptions configure NewAssistants.
type AssistantsOptions struct {
	// Base is the configuration an assistant's keys are laid over: the
	// server's.
	Base config.Config
	// Agent are the options every assistant's agent is built with; its
	// Store keeps the assistants and must be set. Knowledge and Searcher
	// are not used: an assistant opens the knowledge base it names.
	Agent Options
	// MaxAgents bounds the agents kept built (default 8); one in use when
	// it is dropped is closed once its last turn ends.
	MaxAgents int
}

// NewAssistants keeps assistants in o.Agent.Store.
func NewAssistants(o AssistantsOptions) (*Assistants, error) {
	if o.Agent.Store == nil {
		return nil, errors.New("assistants: they are kept in a thread store (Options.Store)")
	}
	o.Agent.Knowledge, o.Agent.Searcher = nil, nil
	return &Assistants{store: o.Agent.Store, base: o.Base, opts: o.Agent, max: cmp.Or(o.MaxAgents, 8), built: map[Ref]*builtAgent{}}, nil
}

// Create makes the next version of the named assistant (its first when
// new) from the config file's keys, checked as the file is.
func (as *Assistants) Create(ctx context.Context, name string, keys json.RawMessage, createdBy string) (AssistantVersion, error) {
	if err := CheckAssistantName(name); err != nil {
		return AssistantVersion{}, fmt.Errorf("name: %w", err)
	}
	if _, err := AssistantConfig(as.base, keys); err != nil {
		return AssistantVersion{}, err
	}
	var compact strings.Builder
	enc := json.NewEncoder(&compact)
	var v any
	_ = json.Unmarshal(keys, &v) // checked above
	if err := enc.Encode(v); err != nil {
		return AssistantVersion{}, err
	}
	// Two replicas may make a version at once: the version is the
	// checkpoint's ID, which a thread holds once, so one Put fails and
	// reads the versions again.
	for attempt := 0; ; attempt++ {
		versions, err := as.versions(ctx, name)
		if err != nil {
			return AssistantVersion{}, err
		}
		next := 1
		if len(versions) > 0 {
			next = versions[len(versions)-1].Version + 1
		}
		if next > MaxAssistantVersions {
			return AssistantVersion{}, fmt.Errorf("name: %s has %d versions, the limit", name, MaxAssistantVersions)
		}
		ver := AssistantVersion{Name: name, Version: next, Config: json.RawMessage(strings.TrimSpace(compact.String())),
			CreatedAt: time.Now().UTC().Truncate(time.Millisecond), CreatedBy: createdBy}
		state, _ := json.Marshal(ver)
		_, err = as.store.Put(ctx, checkpoint.Checkpoint{Thread: assistantPrefix + name, ID: versionID(next),
			Metadata: checkpoint.Metadata{Step: next, Source: "update", Time: ver.CreatedAt}, State: state})
		if err == nil {
			return ver, nil
		}
		if attempt == 2 {
			return AssistantVersion{}, fmt.Errorf("assistant %s: keeping version %d: %w", name, next, err)
		}
	}
}

// versionID is the checkpoint ID of a version; it sorts as the versions do.
func versionID(v int) string { return fmt.Sprintf("v%06d", v) }

// Versions lists the named assistant's versions, the oldest first;
// ErrNoAssistant when it has none.
func (as *Assistants) Versions(ctx context.Context, name string) ([]AssistantVersion, error) {
	v, err := as.versions(ctx, name)
	if err == nil && len(v) == 0 {
		err = fmt.Errorf("%s: %w", name, ErrNoAssistant)
	}
	return v, err
}

func (as *Assistants) versions(ctx context.Context, name string) ([]AssistantVersion, error) {
	cps, err := as.store.List(ctx, assistantPrefix+name, checkpoint.ListOptions{Limit: MaxAssistantVersions})
	if err != nil {
		return nil, fmt.Errorf("assistant %s: %w", name, err)
	}
	out := make([]AssistantVersion, 0, len(cps))
	for _, cp := range cps {
		var v AssistantVersion
		if err := json.Unmarshal(cp.State, &v); err != nil {
			return nil, fmt.Errorf("assistant %s, %s: %w", name, cp.ID, err)
		}
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b AssistantVersion) int { return a.Version - b.Version })
	return out, nil
}

// Names lists the assistants' names, the most recently changed first.
func (as *Assistants) Names(ctx context.Context) ([]string, error) {
	threads, err := as.store.Threads(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, t := range threads {
		if name, ok := strings.CutPrefix(t.Thread, assistantPrefix); ok && len(names) < MaxAssistants {
			names = append(names, name)
		}
	}
	return names, nil
}

// Version reads one version of an assistant (the latest for version 0).
func (as *Assistants) Version(ctx context.Context, r Ref) (AssistantVersion, error) {
	versions, err := as.Versions(ctx, r.Name)
	if err != nil {
		return AssistantVersion{}, err
	}
	if r.Version == 0 {
		return versions[len(versions)-1], nil
	}
	i := slices.IndexFunc(versions, func(v AssistantVersion) bool { return v.Version == r.Version })
	if i < 0 {
		return AssistantVersion{}, fmt.Errorf("%s: %w (its versions are 1 to %d)", r, ErrNoAssistant, versions[len(versions)-1].Version)
	}
	return versions[i], nil
}

// Agent is the agent of an assistant's version (the latest for version
// 0), built on first use; release gives it back once the turn is over.
// The Ref returned names the version.
func (as *Assistants) Agent(ctx context.Context, r Ref) (a *Agent, at Ref, release func(), err error) {
	v, err := as.Version(ctx, r)
	if err != nil {
		return nil, Ref{}, nil, err
	}
	at = Ref{Name: v.Name, Version: v.Version}
	b := as.take(at)
	if b.building {
		b.agent, b.err = as.build(ctx, v)
		as.mu.Lock()
		b.building = false
		if b.err != nil {
			delete(as.built, at) // the next turn tries again
		}
		as.mu.Unlock()
		close(b.ready)
	}
	select {
	case <-b.ready:
	case <-ctx.Done():
		as.give(b)
		return nil, Ref{}, nil, ctx.Err()
	}
	if b.err != nil {
		as.give(b)
		return nil, Ref{}, nil, fmt.Errorf("assistant %s: %w", at, b.err)
	}
	var once sync.Once
	return b.agent, at, func() { once.Do(func() { as.give(b) }) }, nil
}

// take holds the entry of a version, making it (for the caller to build)
// when there is none, and drops the least recently used ones over max.
func (as *Assistants) take(r Ref) *builtAgent {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.clock++
	b := as.built[r]
	if b == nil {
		b = &builtAgent{ready: make(chan struct{}), building: true}
		as.built[r] = b
	}
	b.refs++
	b.lastUse = as.clock
	for len(as.built) > as.max {
		var oldest Ref
		var victim *builtAgent
		for ref, e := range as.built {
			if e != b && !e.building && (victim == nil || e.lastUse < victim.lastUse) {
				oldest, victim = ref, e
			}
		}
		if victim == nil {
			break
		}
		delete(as.built, oldest)
		victim.evicted = true
		if victim.refs == 0 && victim.agent != nil {
			go victim.agent.Close()
		}
	}
	return b
}

// give releases a hold taken by take; a dropped agent's last release
// closes it.
func (as *Assistants) give(b *builtAgent) {
	as.mu.Lock()
	defer as.mu.Unlock()
	b.refs--
	if b.refs == 0 && b.evicted && b.agent != nil {
		go b.agent.Close()
	}
}

// build compiles a version's agent; it outlives the turn that asked for
// it, so the turn's end does not cut it short.
func (as *Assistants) build(ctx context.Context, v AssistantVersion) (*Agent, error) {
	cfg, err := AssistantConfig(as.base, v.Config)
	if err != nil {
		return nil, err
	}
	return New(context.WithoutCancel(ctx), cfg, as.opts)
}

// Close closes the built agents not in use; those in use close when their
// turns end.
func (as *Assistants) Close() error {
	as.mu.Lock()
	defer as.mu.Unlock()
	var errs []error
	for ref, b := range as.built {
		delete(as.built, ref)
		b.evicted = true
		if b.refs == 0 && b.agent != nil {
			errs = append(errs, b.agent.Close())
		}
	}
	return errors.Join(errs...)
}

// binding is what "assistant-of:THREAD" holds.
type binding struct {
	Assistant Ref `json:"assistant"`
}

// Bound is the assistant a conversation ran; false when it ran the
// server's own configuration or has not run yet.
func (as *Assistants) Bound(ctx context.Context, thread string) (Ref, bool, error) {
	cp, err := as.store.Latest(ctx, bindingPrefix+thread)
	if errors.Is(err, checkpoint.ErrNotFound) {
		return Ref{}, false, nil
	}
	if err != nil {
		return Ref{}, false, err
	}
	var b binding
	if err := json.Unmarshal(cp.State, &b); err != nil {
		return Ref{}, false, fmt.Errorf("%s: %w", bindingPrefix+thread, err)
	}
	return b.Assistant, true, nil
}

// Bind records the assistant a conversation runs, before its first turn.
func (as *Assistants) Bind(ctx context.Context, thread string, r Ref) error {
	state, _ := json.Marshal(binding{Assistant: r})
	_, err := as.store.Put(ctx, checkpoint.Checkpoint{Thread: bindingPrefix + thread, Metadata: checkpoint.Metadata{Source: "update"}, State: state})
	return err
}

// Unbind forgets a conversation's assistant, when the conversation goes.
func (as *Assistants) Unbind(ctx context.Context, thread string) error {
	return as.store.Delete(ctx, bindingPrefix+thread)
}
