package nodes

import (
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/tables"
)

// The output channels of DT-004: what the model reads, what the person
// reads, and the structured result a program reads.
const (
	ChannelContext  = "context"
	ChannelUI       = "ui"
	ChannelMetadata = "metadata"
)

// Channel is what DT-004 lets one output channel receive of the plan.
type Channel struct {
	Analysis, Response bool // the synthetic message's sections
	ToolTrace          bool // the SGR tool call and its raw JSON
	StructuredData     bool // the plan's fields as data
}

// route evaluates DT-004 for one channel, once, and records the decision.
func route(s *contracts.ChatState, t *tables.Table, channel string) (Channel, error) {
	res, err := decide(s, t, map[string]any{"output_channel": channel})
	if err != nil {
		return Channel{}, err
	}
	return channelOf(res), nil
}

func channelOf(res tables.Result) Channel {
	yes := func(name string) bool { return res.Get(name) == "true" }
	return Channel{Analysis: yes("analysis_section"), Response: yes("response_section"),
		ToolTrace: yes("tool_trace"), StructuredData: yes("structured_data")}
}

// MetadataChannel is what the output table t (DT-004) recorded for the
// structured result; a turn that ended before the plan was routed has no
// plan to hide, and the result keeps everything it has.
func MetadataChannel(s *contracts.ChatState, t *tables.Table) Channel {
	for i := len(s.Made) - 1; i >= 0; i-- {
		d := s.Made[i]
		if d.Table == t.ID && d.Inputs["output_channel"] == ChannelMetadata {
			return channelOf(d)
		}
	}
	return Channel{Analysis: true, Response: true, ToolTrace: true, StructuredData: true}
}
