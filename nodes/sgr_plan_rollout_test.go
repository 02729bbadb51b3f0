package nodes_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/nodes"
)

func TestInRolloutIsDeterministicAndSpread(t *testing.T) {
	for _, percent := range []int{0, 10, 30, 50, 90, 100} {
		in := 0
		const n = 10000
		for i := range n {
			key := fmt.Sprintf("session-%d", i)
			got := nodes.InRollout(key, percent)
			assert.Equal(t, got, nodes.InRollout(key, percent), "the same key gets the same side")
			if got {
				in++
			}
		}
		share := float64(in) / n * 100
		assert.InDelta(t, float64(percent), share, 2, "percent %d: %.1f%% of sessions plan", percent, share)
	}
	assert.True(t, nodes.InRollout("any", 100))
	assert.False(t, nodes.InRollout("any", 0))
}

func TestInRolloutGrowsWithThePercent(t *testing.T) {
	// A session inside a smaller rollout stays inside a larger one, so
	// raising the percent only ever adds sessions to the planned path.
	for i := range 1000 {
		key := fmt.Sprintf("s%d", i)
		for p := 1; p < 100; p++ {
			if nodes.InRollout(key, p) {
				assert.True(t, nodes.InRollout(key, p+1), "%s in at %d, out at %d", key, p, p+1)
			}
		}
	}
}

func TestPlanningSwitchSkip(t *testing.T) {
	s := &contracts.ChatState{SessionID: "a", UserMessage: "hi"}
	assert.Empty(t, nodes.PlanningSwitch{}.Skip(s), "the zero value plans every turn")
	assert.Contains(t, nodes.PlanningSwitch{Off: true}.Skip(s), "sgr.enabled: false")
	assert.Contains(t, nodes.PlanningSwitch{HeldBackPercent: 100}.Skip(s), "sgr.rollout_percent 0")
}
