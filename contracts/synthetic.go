package contracts

import "github.com/cloudwego/eino/schema"

// The marks of a synthetic message (seed 000 §2 D3), kept in the message's
// Extra: the stored state tells the plan's synthetic message from a model
// reply by them. They never reach a model, and a message a client sends
// never keeps them (Unmarked).
const (
	MarkInjected = "sgr_injected"
	MarkAction   = "sgr_action"
	MarkTurn     = "sgr_turn"
)

// MarkSynthetic marks m as the synthetic message of a turn's plan.
func MarkSynthetic(m *schema.Message, action Action, turn int) *schema.Message {
	if m.Extra == nil {
		m.Extra = map[string]any{}
	}
	m.Extra[MarkInjected], m.Extra[MarkAction], m.Extra[MarkTurn] = true, string(action), turn
	return m
}

// Synthetic says whether m carries the synthetic mark.
func Synthetic(m *schema.Message) bool {
	v, _ := m.Extra[MarkInjected].(bool)
	return v
}

// Unmarked is m without the synthetic marks, a copy when it had any: what a
// client sends as history is its own text, never the system's.
func Unmarked(m *schema.Message) *schema.Message {
	if _, ok := m.Extra[MarkInjected]; !ok {
		if _, ok := m.Extra[MarkAction]; !ok {
			if _, ok := m.Extra[MarkTurn]; !ok {
				return m
			}
		}
	}
	c := *m
	c.Extra = map[string]any{}
	for k, v := range m.Extra {
		if k != MarkInjected && k != MarkAction && k != MarkTurn {
			c.Extra[k] = v
		}
	}
	return &c
}
