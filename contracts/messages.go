package contracts

import "github.com/cloudwego/eino/schema"

// GetMessages is the model context: ChatState is a conversation state
// (prebuilt.Messages), so the default turn's react_agent is a prebuilt
// agent over it.
func (s *ChatState) GetMessages() []*schema.Message { return s.Messages }

// SetMessages replaces the model context.
func (s *ChatState) SetMessages(ms []*schema.Message) { s.Messages = ms }
