package decisions_test

import (
	"fmt"

	"github.com/sgrgraph/sgrgraph/decisions"
)

func Example() {
	set, err := decisions.Standard(decisions.DefaultConfig())
	if err != nil {
		panic(err)
	}
	dt, _ := set.Get("DT-002")
	res, err := dt.Evaluate(map[string]any{"spam_score": 0.7, "intent_confidence": 0.9, "guardian_level": "Safe"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Rule, res.Get("action"), res.Get("flow"))
	// Output: 3 block Stop
}
