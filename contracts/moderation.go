package contracts

// SafetyLevel is the safety classifier's level for a message. Unknown means
// the classifier failed or its answer could not be read; decision table
// DT-001 decides what that means for the turn.
type SafetyLevel string

// The safety levels of Qwen3Guard, plus Unknown for a failed classification.
const (
	LevelSafe          SafetyLevel = "Safe"
	LevelControversial SafetyLevel = "Controversial"
	LevelUnsafe        SafetyLevel = "Unsafe"
	LevelUnknown       SafetyLevel = "Unknown"
	// LevelNotAssessed is the level of a turn whose guard is off
	// (guard.enabled: false): no classifier was asked.
	LevelNotAssessed SafetyLevel = "N/A"
)

// The nine Qwen3Guard safety categories.
const (
	CategoryViolent     = "Violent"
	CategoryIllegalActs = "Non-violent Illegal Acts"
	CategorySexual      = "Sexual Content or Sexual Acts"
	CategoryPII         = "PII"
	CategorySelfHarm    = "Suicide & Self-Harm"
	CategoryUnethical   = "Unethical Acts"
	CategoryPolitical   = "Politically Sensitive Topics"
	CategoryCopyright   = "Copyright Violation"
	CategoryJailbreak   = "Jailbreak"
	CategoryNone        = "None"
)

// Moderation is one safety classification of a message, whatever provider
// produced it.
type Moderation struct {
	Level      SafetyLevel `json:"level"`
	Categories []string    `json:"categories"`
	// Refusal is the classifier's view of whether a refusal is due: Yes, No or empty.
	Refusal  string `json:"refusal,omitempty"`
	Provider string `json:"provider"`
	// Raw keeps the provider's own output (or error text) so nothing it said is lost.
	Raw string `json:"raw,omitempty"`
	// Reasons names what matched, for providers that can say.
	Reasons []string `json:"reasons,omitempty"`
	// Scores are the classifier's probabilities, for providers that give
	// them (the offline guard); nil otherwise.
	Scores *ModerationScores `json:"scores,omitempty"`
}

// ModerationScores are a classifier's probabilities for one message. The
// offline guard's are calibrated on the development parts of its labelled
// sets (docs/guard-offline.md): of the messages given a harmful probability
// near 0.8 there, about eight in ten were labelled harmful.
type ModerationScores struct {
	// Levels are the probabilities of Safe, Controversial and Unsafe; they
	// sum to 1: the flagged probability is 1 - Levels[Safe].
	Levels map[SafetyLevel]float64 `json:"levels"`
	// Categories are the probabilities of the nine categories, each the
	// flagged probability times the category's share of it.
	Categories map[string]float64 `json:"categories"`
}

// GuardMode says whether the Guardian blocks (enforce) or only annotates (report).
type GuardMode string

// The two guard modes of DT-001.
const (
	GuardEnforce GuardMode = "enforce"
	GuardReport  GuardMode = "report"
)
