package contracts

// ToolResult is what one tool call returned: its output, or the error that
// stood in for it.
type ToolResult struct {
	CallID string `json:"call_id"`
	Tool   string `json:"tool"`
	Args   string `json:"args"`
	Output string `json:"output"`
	Error  string `json:"error,omitempty"`
}
