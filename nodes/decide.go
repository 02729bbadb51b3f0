package nodes

import (
	"errors"
	"fmt"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/tables"
)

// decide evaluates a decision table the node owns, once, and records the
// decision in the state: the edge after the node routes on the record, and
// transcripts and results show the row that fired.
func decide(s *contracts.ChatState, t *tables.Table, inputs map[string]any) (tables.Result, error) {
	if t == nil {
		return tables.Result{}, errors.New("a decision table the node needs was not given")
	}
	res, err := t.Evaluate(inputs)
	if err != nil {
		return tables.Result{}, fmt.Errorf("%s: %w", t.ID, err)
	}
	s.Record(res)
	return res, nil
}
