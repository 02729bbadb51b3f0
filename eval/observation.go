package eval

// Observation is what one run of one item's message through a turn showed:
// the runner fills it, Measure reads it. An injection item has one
// observation per injection mode, the others one each.
type Observation struct {
	// Item is the item's index in its set.
	Item int `json:"-"`
	// Mode is the injection mode the turn ran under.
	Mode string `json:"mode,omitempty"`
	// Error says why the turn gave no result; the item then counts as
	// wrong wherever it is measured.
	Error string `json:"error,omitempty"`

	// Level and Categories are the safety guard's verdict; Score is its
	// confidence that the message is unsafe, in [0, 1].
	Level      string   `json:"level,omitempty"`
	Categories []string `json:"categories,omitempty"`
	Score      float64  `json:"score"`
	// Action is the action the turn took; SpamScore the plan's spam
	// score, when Planned (the turn got as far as its plan).
	Action    string  `json:"action,omitempty"`
	SpamScore float64 `json:"spam_score"`
	Planned   bool    `json:"planned"`
	// Ranked are the articles the turn's searches found, by first
	// appearance: each search's articles best first, searches in order.
	Ranked []string `json:"ranked,omitempty"`
	// Answer is the final answer; Cited the articles its citation marks
	// ([n]) name, none when it has none (a refusal, a question back, a
	// model that does not mark its sources).
	Answer string   `json:"answer,omitempty"`
	Cited  []string `json:"cited,omitempty"`
	// Baseline is the retrieval baseline's answer to the same message:
	// the three best paragraphs a plain search of the knowledge base
	// returns.
	Baseline string `json:"baseline,omitempty"`
	// BestParagraph is the paragraph of the knowledge base, cut to
	// AnswerWords, that holds the most of the reference (Baseline.BestParagraph).
	BestParagraph string `json:"best_paragraph,omitempty"`
	// Searches are the queries the turn sent to the knowledge base;
	// Subqueries the plan's.
	Searches   []string `json:"searches,omitempty"`
	Subqueries []string `json:"subqueries,omitempty"`
	// Drafted: the turn reached a first draft. EarlyTermination: that
	// first draft was written before any search.
	Drafted          bool `json:"drafted"`
	EarlyTermination bool `json:"early_termination"`
	// Retries are the Guardian's retries; Tokens the prompt and
	// completion tokens of all the turn's model calls.
	Retries int `json:"retries"`
	Tokens  int `json:"tokens"`
}
