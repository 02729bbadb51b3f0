package tables

// Decisions records the decisions a run made, in order. A node that owns a
// decision evaluates its table once and records the result; the edge that
// routes on it reads the record instead of evaluating the table again, so the
// two can never disagree. Embed it in a state to give the state table edges.
type Decisions struct {
	Made []Result `json:"decisions,omitempty" reduce:"append"` // parallel branches add theirs
}

// Record appends a decision.
func (d *Decisions) Record(r Result) { d.Made = append(d.Made, r) }

// Decision is the latest decision recorded for the table.
func (d Decisions) Decision(table string) (Result, bool) {
	for i := len(d.Made) - 1; i >= 0; i-- {
		if d.Made[i].Table == table {
			return d.Made[i], true
		}
	}
	return Result{}, false
}

// Recorded is every decision recorded, in order; tracing reads the ones a
// node added.
func (d Decisions) Recorded() []Result { return d.Made }
