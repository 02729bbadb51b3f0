package agent

import "errors"

// The errors the agent returns for what a surface answers on its own
// terms (a 409, a tool error naming the argument to drop), to be told
// apart with errors.Is rather than by their text. ErrThreadBusy,
// ErrNoReview and ErrNoAssistant are beside what returns them.
var (
	// ErrNoStore is a call that needs threads (a turn of a thread, a
	// resume, a record, a lock) on an agent built without a store
	// (Options.Store).
	ErrNoStore = errors.New("the agent keeps no threads (give agent.Options.Store)")
	// ErrNoKnowledge is a search of an agent that has no knowledge base of
	// its own (it searches through Options.Searcher, or nowhere).
	ErrNoKnowledge = errors.New("the agent has no knowledge base of its own")
)
