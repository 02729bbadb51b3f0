package decisions

import "github.com/sgrgraph/sgrgraph/tables"

// sgrToolBinding is DT-003 of seed 000 §12. The seed's fifth row ("next user
// message") is its own turn state so that it stays a reachable row; the last
// two rows make every combination decided: a turn never re-plans mid-turn.
func sgrToolBinding() tables.Table {
	return tables.Table{
		ID: "DT-003", Name: "sgr_tool_binding", Title: "SGR Tool Binding Decision",
		Description: "Whether the SGR tool is offered to the model, from the turn state and how often SGR ran this turn.",
		Inputs: []tables.Column{
			{Name: "turn_state", Type: tables.TypeString, Values: []string{"new_user_msg", "after_sgr", "mid_turn", "next_user_msg"}},
			{Name: "sgr_call_count", Type: tables.TypeNumber, Range: ">= 0"},
		},
		Outputs: []tables.Column{{Name: "sgr_tool_available", Type: tables.TypeBool}, {Name: "action", Type: tables.TypeString}},
		Rules: []tables.Rule{
			{Inputs: []string{`"new_user_msg"`, "0"}, Outputs: []string{"true", "bind_and_force"}, Annotation: "Bind SGR tool, force call"},
			{Inputs: []string{`"new_user_msg"`, "> 0"}, Outputs: []string{"true", "reset_bind_and_force"}, Annotation: "Reset counter, bind SGR tool, force call"},
			{Inputs: []string{`"after_sgr"`, "1"}, Outputs: []string{"false", "unbind"}, Annotation: "Unbind SGR tool, continue with remaining tools"},
			{Inputs: []string{`"mid_turn"`, "1"}, Outputs: []string{"false", "unavailable"}, Annotation: "SGR unavailable (prevent re-planning)"},
			{Inputs: []string{`"next_user_msg"`, "0"}, Outputs: []string{"true", "rebind_and_force"}, Annotation: "Re-bind SGR tool for new turn"},
			{Inputs: []string{`"after_sgr","mid_turn"`, "-"}, Outputs: []string{"false", "unavailable"}, Annotation: "never re-plan mid-turn"},
			{Inputs: []string{`"next_user_msg"`, "> 0"}, Outputs: []string{"true", "reset_bind_and_force"}, Annotation: "a new turn resets the counter"},
		},
		Examples: []tables.Example{
			ex(1, "turn_state", "new_user_msg", "sgr_call_count", 0),
			ex(2, "turn_state", "new_user_msg", "sgr_call_count", 2),
			ex(3, "turn_state", "after_sgr", "sgr_call_count", 1),
			ex(4, "turn_state", "mid_turn", "sgr_call_count", 1),
			ex(5, "turn_state", "next_user_msg", "sgr_call_count", 0),
			ex(6, "turn_state", "mid_turn", "sgr_call_count", 2),
			ex(6, "turn_state", "after_sgr", "sgr_call_count", 0),
			ex(7, "turn_state", "next_user_msg", "sgr_call_count", 1),
		},
	}
}
