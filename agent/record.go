package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/graph"
)

// The statuses of a turn in a thread's record.
const (
	TurnAnswered    = "answered"    // the turn ended: its answer, refusal or question back was shown
	TurnInterrupted = "interrupted" // its draft waits for a person's review now
	TurnAbandoned   = "abandoned"   // its draft waited for review, and a new message came instead
)

// TurnRecord is one turn of a thread as its asker was shown it: the
// question, the answer with its citations and sources list as they were
// sent, the Guardian's verdict and a person's review. Every field is
// masked as Run's result is.
type TurnRecord struct {
	Turn     int    `json:"turn"`
	Status   string `json:"status"`
	Question string `json:"question"`
	// Action is the turn's action (normal, clarify, a block...); "" while
	// it waits for review.
	Action contracts.Action `json:"action,omitempty"`
	// Answer is the text the client received (the result's answer).
	Answer string `json:"answer,omitempty"`
	// UI are the messages the person was shown (the answer, its sources).
	UI      []contracts.UIMessage   `json:"ui"`
	Sources []Source                `json:"sources"`
	Verdict *contracts.Verdict      `json:"verdict,omitempty"`
	Review  *contracts.ReviewAnswer `json:"review,omitempty"`
	// Pending is the review the turn waits for (status interrupted), or
	// waited for (abandoned).
	Pending *PendingReview `json:"pending_review,omitempty"`
	// At is when the turn's record was written.
	At time.Time `json:"at"`
}

// Source is one article of an answer's sources list, by the number its
// citations [n] use.
type Source struct {
	N     int     `json:"n"`
	Title string  `json:"title"`
	URL   string  `json:"url,omitempty"`
	Score float64 `json:"score"`
}

// PendingReview is a draft held for a person: the interrupt to answer
// (Agent.ResumeTurn), what is asked, and the evidence the draft had.
type PendingReview struct {
	InterruptID string `json:"interrupt_id"`
	Turn        int    `json:"turn"`
	// Checkpoint is the checkpoint that holds the draft.
	Checkpoint string `json:"checkpoint"`
	contracts.ReviewRequest
	Evidence []contracts.EvidenceItem `json:"evidence"`
	Articles []contracts.Article      `json:"articles"`
	// At is when the draft was held (PendingReview only).
	At time.Time `json:"held_at,omitzero"`
}

// RecordPage is a page of a thread's record, oldest turn first.
type RecordPage struct {
	Turns []TurnRecord
	// Cursor, when not "", gives the turns before these (RecordOptions.Cursor).
	Cursor string
}

// RecordOptions select a page of a thread's record.
type RecordOptions struct {
	// Limit is how many turns, the newest first (1 to 1000; 0: 20).
	Limit int
	// Cursor continues a page's Cursor: the turns before it.
	Cursor string
}

// maxRecordPage bounds a page of the record: each turn is a checkpoint read.
const maxRecordPage = 1000

// Record is a thread's turns as their askers were shown them, whatever
// agent.history_tokens keeps for the model: each turn's checkpoint holds
// its whole result, so the record is as long as threads.keep_last lets the
// checkpoints be (200 by default; 0 keeps all). A turn cut short (its
// client went away, its process died) was shown nothing and is left out;
// a turn held for review and resumed shows once, as it ended.
// checkpoint.ErrNotFound when the thread has no checkpoint.
func (a *Agent) Record(ctx context.Context, thread string, o RecordOptions) (RecordPage, error) {
	if a.store == nil {
		return RecordPage{}, fmt.Errorf("record: %w", ErrNoStore)
	}
	limit := o.Limit
	if limit == 0 {
		limit = 20
	}
	if limit < 1 || limit > maxRecordPage {
		return RecordPage{}, fmt.Errorf("record: limit %d: from 1 to %d", limit, maxRecordPage)
	}
	below, before, err := parseCursor(o.Cursor)
	if err != nil {
		return RecordPage{}, err
	}
	var out []TurnRecord
	last := "" // the checkpoint of the oldest turn taken
	const batch = 32
	for first := true; ; first = false {
		opts := []graph.HistoryOption{graph.Last(batch)}
		if before != "" {
			opts = append(opts, graph.Before(before))
		}
		snaps, err := a.graph.Turn.History(ctx, thread, opts...)
		if errors.Is(err, checkpoint.ErrNotFound) && before != "" {
			return RecordPage{}, fmt.Errorf("record: cursor %q: its checkpoint is gone (pruned); start again without a cursor", o.Cursor)
		}
		if err != nil {
			return RecordPage{}, err
		}
		if first && len(snaps) == 0 && o.Cursor == "" {
			return RecordPage{}, checkpoint.ErrNotFound
		}
		for i, s := range snaps {
			// A turn shows once: the newest checkpoint that settled it. A
			// resumed review's end comes after its pause; a cut turn's
			// number is taken again by the next turn.
			if !settled(s) || s.State == nil || (below > 0 && s.State.Turn >= below) {
				continue
			}
			if len(out) == limit { // one more turn is there: the page has a next
				reverse(out)
				return RecordPage{Turns: out, Cursor: strconv.Itoa(below) + "." + last}, nil
			}
			out = append(out, a.record(s, first && i == 0 && o.Cursor == ""))
			below, last = s.State.Turn, s.ID
		}
		if len(snaps) < batch {
			break
		}
		before = snaps[len(snaps)-1].ID
	}
	reverse(out)
	return RecordPage{Turns: out}, nil
}

func reverse(turns []TurnRecord) {
	for i, j := 0, len(turns)-1; i < j; i, j = i+1, j-1 {
		turns[i], turns[j] = turns[j], turns[i]
	}
}

// parseCursor reads "TURN.CHECKPOINT": the record goes on with the turns
// below TURN, from the checkpoints before CHECKPOINT ("" for the latest).
func parseCursor(c string) (below int, before string, err error) {
	if c == "" {
		return 0, "", nil
	}
	n, id, ok := strings.Cut(c, ".")
	below, convErr := strconv.Atoi(n)
	if !ok || convErr != nil || below < 1 {
		return 0, "", fmt.Errorf("record: cursor %q: not a cursor a page of this thread gave", c)
	}
	return below, id, nil
}

// record is a settled checkpoint's turn as it was shown, masked.
func (a *Agent) record(s graph.Snapshot[State], head bool) TurnRecord {
	st := s.State
	r := TurnRecord{Turn: st.Turn, Question: MaskText(st.UserMessage), At: s.Metadata.Time,
		UI: []contracts.UIMessage{}, Sources: []Source{}}
	if len(s.Interrupts) > 0 {
		r.Status = TurnAbandoned
		if head {
			r.Status = TurnInterrupted
		}
		m := a.Masking()
		r.Pending = pendingOf(s, m)
		if r.Verdict = st.Verdict; r.Verdict != nil {
			v := st.Verdict.MapText(m.text)
			r.Verdict = &v
		}
		return r
	}
	res := a.Masking().Result(a.Result(st))
	r.Status, r.Action, r.Answer, r.Verdict, r.Review = TurnAnswered, res.Action, res.Answer, res.Verdict, res.Review
	r.UI = append(r.UI, res.UI...)
	for i, art := range res.Articles[:listed(res)] {
		r.Sources = append(r.Sources, Source{N: i + 1, Title: art.Title, URL: art.URL, Score: art.Score})
	}
	return r
}

// pendingOf is the review a paused checkpoint waits for, masked as m says
// (its evidence and articles are the knowledge base's); nil when its
// interrupt is not a review request.
func pendingOf(s graph.Snapshot[State], m Masking) *PendingReview {
	var in checkpoint.Interrupt
	for _, w := range s.Interrupts {
		if w.Value == nil {
			in = w
			break
		}
	}
	var req contracts.ReviewRequest
	if in.ID == "" || json.Unmarshal(in.Payload, &req) != nil {
		return nil
	}
	p := &PendingReview{InterruptID: in.ID, Checkpoint: s.ID, ReviewRequest: req,
		Evidence: []contracts.EvidenceItem{}, Articles: []contracts.Article{}}
	// The question is the user's: nothing in it is the knowledge base's.
	p.Question, p.Draft = MaskText(req.Question), m.text(req.Draft)
	p.Reasons = make([]string, len(req.Reasons))
	for i, reason := range req.Reasons {
		p.Reasons[i] = m.text(reason)
	}
	if st := s.State; st != nil {
		p.Turn = st.Turn
		for _, e := range st.Evidence {
			p.Evidence = append(p.Evidence, m.Evidence(e))
		}
		for _, art := range st.Articles {
			p.Articles = append(p.Articles, m.Article(art))
		}
	}
	return p
}

// citationMark is a citation [n] in an answer.
var citationMark = regexp.MustCompile(`\[(\d{1,4})\]`)

// listed is how many of a result's articles its sources list shows:
// finalize lists the cited ones, numbered 1..k and put first, or every
// article when the answer cites none. A turn without an answer lists none.
func listed(r contracts.StructuredResult) int {
	if !hasUI(r.UI, contracts.UISources) {
		return 0
	}
	cited := map[int]bool{}
	for _, m := range citationMark.FindAllStringSubmatch(uiText(r.UI, contracts.UIAnswer), -1) {
		if n, _ := strconv.Atoi(m[1]); n >= 1 && n <= len(r.Articles) {
			cited[n] = true
		}
	}
	if len(cited) == 0 {
		return len(r.Articles)
	}
	return len(cited)
}

func hasUI(ui []contracts.UIMessage, t contracts.UIType) bool {
	for _, m := range ui {
		if m.Type == t {
			return true
		}
	}
	return false
}

func uiText(ui []contracts.UIMessage, t contracts.UIType) string {
	for _, m := range ui {
		if m.Type == t {
			return m.Content
		}
	}
	return ""
}
