package studio

import (
	"context"
	"fmt"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/nodes"
)

// ForAgent is the studio of the default turn an agent runs, over the
// agent's thread store (agent.Options.Store): the react_agent loop drawn
// inside its node, the page's text taken as the user's message, and a
// studio run holding its thread as a turn does (Agent.LockThread), so that
// it never runs beside a chat turn of the same thread. Options left nil
// take these; the rest are as New's.
func ForAgent(a *agent.Agent, o Options[agent.State]) (*Handler, error) {
	if a.Store() == nil {
		return nil, fmt.Errorf("studio: the agent keeps no threads (give agent.Options.Store)")
	}
	g := a.Graph()
	if o.Input == nil {
		o.Input = func(text string) (agent.State, error) { return agent.NewState(agent.Turn{Message: text}) }
	}
	if o.Subgraphs == nil {
		o.Subgraphs = map[string]*graph.Runnable[agent.State]{nodes.ReactAgentName: g.Loop}
	}
	if o.Lock == nil {
		o.Lock = func(ctx context.Context, thread string) (func(), error) {
			lock, err := a.LockThread(ctx, thread, "studio")
			if err != nil {
				return nil, err
			}
			return func() { _ = lock.Release() }, nil
		}
	}
	return New(g.Turn, a.Store(), o)
}
