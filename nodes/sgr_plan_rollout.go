package nodes

import (
	"fmt"
	"hash/fnv"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// PlanningSwitch decides, turn by turn, whether sgr_plan makes its
// planning call (sgr.enabled, sgr.rollout_percent: seed 000's gradual
// rollout of the SGR path).
type PlanningSwitch struct {
	// Off turns planning off for every turn.
	Off bool
	// HeldBackPercent is the share of sessions, 0 to 100, whose turns do
	// not plan: 100 - sgr.rollout_percent, so that the zero value plans all.
	HeldBackPercent int
}

// Skip says why s's turn answers without a plan, or "" when it plans. The
// session picks its side once and keeps it: a conversation does not switch
// between the two paths from one turn to the next.
func (p PlanningSwitch) Skip(s *contracts.ChatState) string {
	switch {
	case p.Off:
		return "planning off (sgr.enabled: false): the agent answers the message directly"
	case !InRollout(rolloutKey(s), 100-p.HeldBackPercent):
		return fmt.Sprintf("planning skipped: the session is outside sgr.rollout_percent %d; the agent answers the message directly", 100-p.HeldBackPercent)
	}
	return ""
}

// rolloutKey is what picks a turn's side: its session (a thread's turns
// carry the thread as their session), else the message, so that callers
// who send no session still spread over both sides.
func rolloutKey(s *contracts.ChatState) string {
	if s.SessionID != "" {
		return "session:" + s.SessionID
	}
	return "message:" + s.UserMessage
}

// InRollout reports whether key falls in the first percent of 100 buckets
// of its FNV-1a hash: the same key always gets the same answer, and keys
// spread evenly. 0 admits none, 100 all.
func InRollout(key string, percent int) bool {
	if percent >= 100 {
		return true
	}
	if percent <= 0 {
		return false
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(key)) // a hash's Write never fails
	return int(h.Sum32()%100) < percent
}
