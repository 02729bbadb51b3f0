package contracts

// VerdictKind is the Guardian's judgement of a draft answer.
type VerdictKind string

// The Guardian's three verdicts.
const (
	VerdictPass  VerdictKind = "PASS"
	VerdictRetry VerdictKind = "RETRY"
	VerdictFail  VerdictKind = "FAIL"
)

// RiskLevel grades how much is at stake in a verdict.
type RiskLevel string

// The three risk levels.
const (
	RiskLow  RiskLevel = "low"
	RiskMed  RiskLevel = "med"
	RiskHigh RiskLevel = "high"
)

// RequiredAction is one instruction the Guardian gives for the next attempt.
// The set is closed: the Guardian judges, it never writes free-form advice.
type RequiredAction string

// Every required action the Guardian may give.
const (
	ActAddEvidence            RequiredAction = "ADD_EVIDENCE"
	ActRetrieveMore           RequiredAction = "RETRIEVE_MORE"
	ActDiversifySources       RequiredAction = "DIVERSIFY_SOURCES"
	ActRemoveDocEvidence      RequiredAction = "REMOVE_DOC_EVIDENCE"
	ActUseDBOnly              RequiredAction = "USE_DB_ONLY"
	ActRetrieveDB             RequiredAction = "RETRIEVE_DB"
	ActRetrieveDoc            RequiredAction = "RETRIEVE_DOC"
	ActRetrievePolicy         RequiredAction = "RETRIEVE_POLICY"
	ActRefineQuery            RequiredAction = "REFINE_QUERY"
	ActRestrictScope          RequiredAction = "RESTRICT_SCOPE"
	ActAddRequiredSections    RequiredAction = "ADD_REQUIRED_SECTIONS"
	ActRegenerateDraft        RequiredAction = "REGENERATE_DRAFT"
	ActRemoveForbiddenContent RequiredAction = "REMOVE_FORBIDDEN_CONTENT"
	ActUseDomainTerms         RequiredAction = "USE_DOMAIN_TERMS"
	ActAskMinimalQuestion     RequiredAction = "ASK_MINIMAL_QUESTION"
	ActSafeRefusal            RequiredAction = "SAFE_REFUSAL"
)

// Verdict is the Guardian's judgement with its reasons. It never carries
// answer text.
type Verdict struct {
	Verdict         VerdictKind      `json:"verdict"`
	Reasons         []string         `json:"reasons"`
	RequiredActions []RequiredAction `json:"required_actions"`
	RiskLevel       RiskLevel        `json:"risk_level"`
	// SetAside are the retrieved pieces the Guardian kept out of the
	// evidence it judged, as untrusted (an article that gives the
	// assistant orders): which, from where, and why.
	SetAside []SetAside `json:"set_aside,omitempty"`
}

// CheckResult is what one pure Guardian check returns: ok, a machine-readable
// reason and the actions that would fix the problem.
type CheckResult struct {
	OK              bool             `json:"ok"`
	Reason          string           `json:"reason"`
	RequiredActions []RequiredAction `json:"required_actions,omitempty"`
	// SetAside names (by Ref) the retrieved pieces the evidence check left
	// out as untrusted (ChatState.SetAside): the evidence judged is what
	// remained.
	SetAside []string `json:"set_aside,omitempty"`
}

// PolicyDecision is the query policy's answer.
type PolicyDecision string

// The two policy decisions.
const (
	PolicyAllow PolicyDecision = "ALLOW"
	PolicyDeny  PolicyDecision = "DENY"
)

// PolicyResult is the outcome of the query policy check (L0).
type PolicyResult struct {
	Decision PolicyDecision `json:"decision"`
	Reasons  []string       `json:"reasons,omitempty"`
}
