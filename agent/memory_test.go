package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/memory"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// oneTurn is a scripted turn: plan, search, answer.
func oneTurn() []sgrtest.Reply {
	return []sgrtest.Reply{sgrtest.ToolCall("analyse_user_request", planJSON(question)),
		sgrtest.ToolCall("search_kb", `{"query":"support contact"}`), sgrtest.Text("Write to the support desk [1].")}
}

// agentPrompt is the system prompt of the agent's first model call of
// the turn whose requests start at from.
func agentPrompt(t *testing.T, m *sgrtest.ScriptedModel, from int) string {
	t.Helper()
	reqs := m.Requests()
	require.Greater(t, len(reqs), from+1)
	return reqs[from+1].Messages[0].Content
}

// A preference stated in one thread is used in the user's other threads:
// not in another user's, and not in the same user name under another key.
func TestMemoryKeepsAUsersPreferencesAcrossThreads(t *testing.T) {
	ctx := context.Background()
	var script []sgrtest.Reply
	for range 5 {
		script = append(script, oneTurn()...)
	}
	m := sgrtest.NewScriptedModel(script...)
	store := memory.NewInProcess()
	a := newAgent(t, agent.Options{Model: m, Searcher: contactSearch{}, Memory: store},
		func(c *config.Config) { c.Memory.Enabled = true })
	turn := func(tenant, user, msg string) *contracts.ChatState {
		t.Helper()
		s, err := a.RunState(ctx, agent.Turn{SessionID: "thread-" + user, Tenant: tenant, User: user, Message: msg})
		require.NoError(t, err)
		return s
	}

	s := turn("key-a", "ann", "Please answer in Russian. I use Acme Cloud. "+question)
	assert.Equal(t, "ru", s.Language, "the statement applies to its own turn")
	it, err := store.Get(ctx, []string{"tenants", "key-a", "users", "ann"}, agent.PreferencesKey)
	require.NoError(t, err)
	assert.JSONEq(t, `{"language":"ru","product":"Acme Cloud"}`, string(it.Value))

	s = turn("key-a", "ann", question) // thread B, same user
	assert.Equal(t, "ru", s.Language)
	p := agentPrompt(t, m, 3)
	assert.Contains(t, p, "Answer in Russian.")
	assert.Contains(t, p, "The user has said they use Acme Cloud.")

	s = turn("key-a", "bob", question) // another user of the key
	assert.Equal(t, "en", s.Language)
	assert.NotContains(t, agentPrompt(t, m, 6), "Acme Cloud")

	s = turn("key-b", "ann", question) // the same user name under another key
	assert.Equal(t, "en", s.Language)
	assert.NotContains(t, agentPrompt(t, m, 9), "Acme Cloud")

	s, err = a.RunState(ctx, agent.Turn{SessionID: "fixed", Tenant: "key-a", User: "ann", Language: "en", Message: question})
	require.NoError(t, err)
	assert.Equal(t, "en", s.Language, "a turn that fixes its language keeps it")
}

// Off by default: no store is opened, nothing is read or kept, and the
// turn is the same whoever asks.
func TestMemoryOffByDefault(t *testing.T) {
	ctx := context.Background()
	store := memory.NewInProcess()
	m := sgrtest.NewScriptedModel(append(oneTurn(), oneTurn()...)...)
	a := newAgent(t, agent.Options{Model: m, Searcher: contactSearch{}, Memory: store})
	_, err := a.RunState(ctx, agent.Turn{SessionID: "a", User: "ann", Message: "Please answer in Russian. " + question})
	require.NoError(t, err)
	s, err := a.RunState(ctx, agent.Turn{SessionID: "b", User: "ann", Message: question})
	require.NoError(t, err)
	assert.Equal(t, "en", s.Language)
	spaces, err := store.List(ctx, memory.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, spaces)
}

// failingMemory is a store that cannot be reached.
type failingMemory struct{ memory.Store }

func (failingMemory) Get(context.Context, []string, string) (memory.Item, error) {
	return memory.Item{}, errors.New("connection refused")
}

// A store that fails costs the turn its preferences, said in a note, not
// its answer.
func TestMemoryThatFailsDoesNotFailTheTurn(t *testing.T) {
	m := sgrtest.NewScriptedModel(oneTurn()...)
	a := newAgent(t, agent.Options{Model: m, Searcher: contactSearch{}, Memory: failingMemory{memory.NewInProcess()}},
		func(c *config.Config) { c.Memory.Enabled = true; c.Memory.TTL = time.Hour })
	s, err := a.RunState(context.Background(), agent.Turn{SessionID: "s", User: "ann", Message: question})
	require.NoError(t, err)
	assert.NotEmpty(t, s.Answer)
	var notes []string
	for _, n := range s.Diagnostics.Notes {
		notes = append(notes, n.Message)
	}
	assert.Contains(t, strings.Join(notes, "\n"), "memory: reading the user's preferences failed (connection refused)")
}

func TestMemoryIDsAreChecked(t *testing.T) {
	_, err := agent.NewState(agent.Turn{Message: "q", User: strings.Repeat("u", memory.MaxPartBytes+1)})
	assert.ErrorContains(t, err, "user: ")
	_, err = agent.NewState(agent.Turn{Message: "q", Tenant: "a\nb"})
	assert.ErrorContains(t, err, "tenant: holds a control character")
}

func TestStatedPreferences(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want agent.Preferences
	}{
		{"Please answer in Russian.", agent.Preferences{Language: "ru"}},
		{"Reply to me in English, please", agent.Preferences{Language: "en"}},
		{"Отвечай по-русски, пожалуйста", agent.Preferences{Language: "ru"}},
		{"Пишите на английском", agent.Preferences{Language: "en"}},
		{"I use Acme Cloud and need the API docs.", agent.Preferences{Product: "Acme Cloud"}},
		{"Hi. We're using sgrgraph 2.1 for support", agent.Preferences{Product: "sgrgraph 2.1"}},
		{"Я использую Acme Pro для поддержки", agent.Preferences{Product: "Acme Pro"}},
		{"How do I use the safety guard?", agent.Preferences{}},
		{"Как настроить защиту?", agent.Preferences{}}, // a question in Russian states no preference
	} {
		assert.Equal(t, tc.want, agent.StatedPreferences(tc.msg), tc.msg)
	}
}
