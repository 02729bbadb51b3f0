package contracts

// ToolResult is what one tool call returned: its output, or the error that
// stood in for it.
type ToolResult struct {
	CallID string `json:"call_id"`
	Tool   string `json:"tool"`
	Args   string `json:"args"`
	Output string `json:"output"`
	Error  string `json:"error,omitempty"`
	// SetAside are what the Guardian took out of Output before the model
	// saw it (see ChatState.SetAside).
	SetAside []SetAside `json:"set_aside,omitempty"`
	// Found is the search result Output holds, when the tool step read it
	// already (to screen it), so that recording it does not decode Output
	// again. It is not serialised: a state restored between the two steps
	// decodes Output.
	Found *QueryTrace `json:"-"`
}
