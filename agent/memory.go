package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/memory/postgres"
	"github.com/sgrgraph/sgrgraph/memory/redis"
	"github.com/sgrgraph/sgrgraph/memory/sqlite"
	"github.com/sgrgraph/sgrgraph/nodes"
)

// UserMemory is the run's context value of a turn with memory
// (memory.enabled and a Turn.User or Turn.Tenant): the store and the
// namespace of the user's items. The turn's nodes read it with
// graph.ContextOf[agent.UserMemory]; a node of your own (Options.Replace)
// may keep more of the user's facts under Namespace.
type UserMemory struct {
	Store     memory.Store
	Namespace []string
	// TTL is how long an item written lives (memory.ttl); 0 keeps it.
	TTL time.Duration
	// known is what the turn knows of the user's preferences, once
	// sgr_plan has read them; agent_model's prompt reads it.
	known *Preferences
}

// Preferences are what a user has stated about themselves, kept under
// the key "preferences" of their namespace.
type Preferences struct {
	Language string `json:"language,omitempty"` // ru or en: the answer language asked for
	Product  string `json:"product,omitempty"`  // the product they said they use
}

// PreferencesKey is the key of a user's Preferences in their namespace.
const PreferencesKey = "preferences"

// memoryTimeout bounds one memory call in a turn: memory is an aid, and
// a slow store costs the turn its preferences, not its answer.
const memoryTimeout = 2 * time.Second

// MemoryNamespace is where a turn's user's items are kept: under
// "tenants", t.Tenant when a tenant is given (serve's API key), then
// under "users", t.User when a user is given. One tenant's namespace is
// never a prefix of another's, so a key reads only its own users. nil:
// the turn has no user, and nothing is remembered.
func MemoryNamespace(t Turn) []string {
	var ns []string
	if t.Tenant != "" {
		ns = append(ns, "tenants", t.Tenant)
	}
	if t.User != "" {
		ns = append(ns, "users", t.User)
	}
	return ns
}

// CheckMemoryIDs checks a turn's User and Tenant as namespace parts:
// NewState refuses a turn they do not fit, naming the field and its limit.
func CheckMemoryIDs(t Turn) error {
	for _, f := range []struct{ name, v string }{{"user", t.User}, {"tenant", t.Tenant}} {
		switch {
		case len(f.v) > memory.MaxPartBytes:
			return fmt.Errorf("%s: %d bytes, over the limit of %d", f.name, len(f.v), memory.MaxPartBytes)
		case !utf8.ValidString(f.v):
			return fmt.Errorf("%s: not valid UTF-8", f.name)
		case strings.ContainsFunc(f.v, func(r rune) bool { return r < ' ' || r == 0x7f }):
			return fmt.Errorf("%s: holds a control character", f.name)
		}
	}
	return nil
}

// OpenMemory opens the memory store where names: a postgres:// or
// redis:// URL, a SQLite file (a path, or sqlite:PATH), or, when empty,
// memory.db under the user cache directory. The caller closes it.
func OpenMemory(ctx context.Context, where string) (memory.Store, error) {
	return openByURL(ctx, "memory.store", where, storeOpeners[memory.Store]{
		postgres:    func(ctx context.Context, url string) (memory.Store, error) { return postgres.Open(ctx, url) },
		redis:       func(ctx context.Context, url string) (memory.Store, error) { return redis.Open(ctx, url) },
		sqlite:      func(path string) (memory.Store, error) { return sqlite.Open(path) },
		defaultPath: sqlite.DefaultPath,
	})
}

// openMemory gives the agent its memory store when memory.enabled: the
// caller's (Options.Memory), else the configured one, which the agent
// closes.
func (a *Agent) openMemory(ctx context.Context, o Options) error {
	if !a.cfg.Memory.Enabled {
		return nil
	}
	if o.Memory != nil {
		a.memory = o.Memory
		return nil
	}
	s, err := OpenMemory(ctx, a.cfg.Memory.Store)
	if err != nil {
		return err
	}
	a.memory, a.ownsMemory = s, true
	return nil
}

// closeMemory closes the memory store if the agent opened it.
func (a *Agent) closeMemory() error {
	if a.ownsMemory && a.memory != nil {
		return a.memory.Close()
	}
	return nil
}

// withMemory gives the run the user's memory, when the agent keeps
// memory and the turn names a user.
func (a *Agent) withMemory(t Turn, opts []graph.RunOption) []graph.RunOption {
	ns := MemoryNamespace(t)
	if a.memory == nil || ns == nil {
		return opts
	}
	return append(opts, graph.WithContext(UserMemory{Store: a.memory, Namespace: ns, TTL: a.cfg.Memory.TTL, known: &Preferences{}}))
}

// remembering wraps sgr_plan, the first step after the guard has let the
// message in: it reads the user's preferences, keeps what the message
// states (a stated preference replaces the one kept), and answers in the
// remembered language unless the turn fixes one. A turn without memory
// runs the node as it is. A store that fails costs the turn its
// preferences, with a note and a log line, not its answer.
func remembering(next nodes.Func) nodes.Func {
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		um, ok := graph.ContextOf[UserMemory](ctx)
		if !ok || um.Store == nil {
			return next(ctx, s)
		}
		kept, err := um.read(ctx)
		if err != nil {
			memoryFailed(ctx, s, "reading the user's preferences", err)
		}
		merged := kept.with(StatedPreferences(s.UserMessage))
		// Written only over what was read: a store that could not be read
		// would lose the preference this message does not state.
		if err == nil && merged != kept {
			if err := um.write(ctx, merged); err != nil {
				memoryFailed(ctx, s, "keeping the user's preferences", err)
			}
		}
		kept = merged
		*um.known = kept
		if s.Language == "" && kept.Language != "" {
			s.Language = kept.Language
			s.Diagnostics.Notes = append(s.Diagnostics.Notes, contracts.NodeNote{Node: nodes.SGRPlanName,
				Message: "memory: answering in " + kept.Language + ", as the user asked"})
		}
		return next(ctx, s)
	}
}

// userAbout is what agent_model's prompt says of the user: the product
// they said they use, when the turn's memory knows it.
func userAbout(ctx context.Context) string {
	um, ok := graph.ContextOf[UserMemory](ctx)
	if !ok || um.known == nil || um.known.Product == "" {
		return ""
	}
	return "The user has said they use " + um.known.Product + "."
}

func memoryFailed(ctx context.Context, s *contracts.ChatState, doing string, err error) {
	zerolog.Ctx(ctx).Warn().Err(err).Str("session", s.SessionID).Msg("memory: " + doing)
	s.Diagnostics.Notes = append(s.Diagnostics.Notes, contracts.NodeNote{Node: nodes.SGRPlanName,
		Message: "memory: " + doing + " failed (" + err.Error() + "); the turn goes on without it"})
}

func (um UserMemory) read(ctx context.Context) (Preferences, error) {
	ctx, cancel := context.WithTimeout(ctx, memoryTimeout)
	defer cancel()
	it, err := um.Store.Get(ctx, um.Namespace, PreferencesKey)
	if errors.Is(err, memory.ErrNotFound) {
		return Preferences{}, nil
	}
	if err != nil {
		return Preferences{}, err
	}
	var p Preferences
	if err := json.Unmarshal(it.Value, &p); err != nil {
		return Preferences{}, fmt.Errorf("the kept preferences: %w", err)
	}
	return p.valid(), nil
}

func (um UserMemory) write(ctx context.Context, p Preferences) error {
	ctx, cancel := context.WithTimeout(ctx, memoryTimeout)
	defer cancel()
	v, err := json.Marshal(p)
	if err != nil {
		return err
	}
	_, err = um.Store.Put(ctx, um.Namespace, PreferencesKey, v, um.TTL)
	return err
}

// with is p with what was stated now in place of what was kept.
func (p Preferences) with(stated Preferences) Preferences {
	if stated.Language != "" {
		p.Language = stated.Language
	}
	if stated.Product != "" {
		p.Product = stated.Product
	}
	return p
}

// valid is p with what no statement could have given dropped: a store
// is read as untrusted as any other.
func (p Preferences) valid() Preferences {
	if p.Language != "ru" && p.Language != "en" {
		p.Language = ""
	}
	if !productRE.MatchString(p.Product) {
		p.Product = ""
	}
	return p
}

var (
	// "answer in Russian", "reply to me in English", "in Russian, please",
	// "I prefer English"; "отвечай по-русски", "пишите на английском".
	languageRE = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(?:answer|reply|respond|write|talk|speak)(?:\s+to\s+me)?(?:\s+only)?\s+in\s+(english|russian)\b`),
		regexp.MustCompile(`(?i)\bin\s+(english|russian)\s*,?\s*please\b`),
		regexp.MustCompile(`(?i)\bi(?:'d|\s+would)?\s+prefer\s+(english|russian)\b`),
		regexp.MustCompile(`(?i)(?:отвечай|отвечайте|ответь|ответьте|пиши|пишите|говори|говорите)(?:\s+мне)?(?:\s+только)?\s+(по-русски|по-английски|на\s+русском|на\s+английском)`),
	}
	// "I use X", "we're using X", "my product is X" opening a sentence
	// (not "how do I use X"); "я использую X", "мой продукт X". Up to
	// three words, cut before "and", "for" and the like.
	productStatedRE = regexp.MustCompile(`(?i)(?:^|[.!?;]\s+)(?:i\s+use|i'm\s+using|i\s+am\s+using|we\s+use|we're\s+using|we\s+are\s+using|my\s+product\s+is|our\s+product\s+is|я\s+использую|мы\s+используем|мой\s+продукт\s*(?:[—:-]\s*)?|наш\s+продукт\s*(?:[—:-]\s*)?)\s*([\p{L}\p{N}][\p{L}\p{N}.+\-]*(?:\s+[\p{L}\p{N}][\p{L}\p{N}.+\-]*){0,2})`)
	productStop     = map[string]bool{"and": true, "but": true, "for": true, "to": true, "with": true, "in": true, "on": true, "и": true, "но": true, "для": true, "в": true, "с": true}
	productRE       = regexp.MustCompile(`^[\p{L}\p{N}][\p{L}\p{N}.+\- ]{0,59}$`)
)

// StatedPreferences reads the preferences a message states: an answer
// language asked for, a product the user says they use. It reads
// statements, not guesses: a question asked in Russian states nothing.
func StatedPreferences(msg string) Preferences {
	var p Preferences
	for _, re := range languageRE {
		if m := re.FindStringSubmatch(msg); m != nil {
			p.Language = "ru"
			if w := strings.ToLower(m[1]); w == "english" || strings.Contains(w, "англ") {
				p.Language = "en"
			}
			break
		}
	}
	if m := productStatedRE.FindStringSubmatch(strings.TrimSpace(msg)); m != nil {
		var words []string
		for _, w := range strings.Fields(m[1]) {
			word := strings.TrimRight(w, ".-")
			if productStop[strings.ToLower(word)] {
				break
			}
			words = append(words, word)
			if word != w {
				break // the sentence ends
			}
		}
		if product := strings.TrimRight(strings.Join(words, " "), ".-"); productRE.MatchString(product) {
			p.Product = product
		}
	}
	return p
}
